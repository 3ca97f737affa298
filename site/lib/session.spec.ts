import { safeNextPath } from './session';

const ORIGIN = 'https://books.example.org';

describe(safeNextPath.name, () => {
  it.each([
    '/..//evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e%2e//evil.example',
    '/%2E%2E//evil.example',
    '/./..//evil.example/path',
    '//evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    'https://evil.example',
    'http:/evil.example',
    'javascript:alert(1)',
    '\t/javascript:alert(1)',
    ' //evil.example',
    '',
    null,
  ])('refuses %p', (next) => {
    expect(safeNextPath(next, ORIGIN)).toBeNull();
  });

  it.each([
    ['/dashboard', '/dashboard'],
    ['/checkout?plan=plus#top', '/checkout?plan=plus#top'],
    ['/book-detail/der-leuchtturmwarter', '/book-detail/der-leuchtturmwarter'],
    ['/a/../profile', '/profile'],
  ])('keeps %p on this site as %p', (next, expected) => {
    expect(safeNextPath(next, ORIGIN)).toBe(expected);
  });

  // Tricks that are refused and tricks that resolve to a plain path: whichever the answer, a browser sent
  // there lands on this site or nowhere.
  it.each(['/..//x', '/.//x', '/a/..//x', '/%2e%2e//x', '//x', '/\\x', '/a/../x', '/%2e%2e/x', '/./x'])(
    'never returns a path a browser would read as another host: %p',
    (trick) => {
      const path = safeNextPath(trick, ORIGIN);
      const landing = path === null ? 'refused' : new URL(path, ORIGIN).origin;
      expect(['refused', ORIGIN]).toContain(landing);
    },
  );
});
