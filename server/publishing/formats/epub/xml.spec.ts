import { bookIdentifier, uuidV5 } from './opf';
import { clock, esc, modifiedStamp, seconds, xmlText } from './xml';

describe('EPUB XML helpers', () => {
  it('writes clip ends and durations from whole microseconds, without float drift', () => {
    expect(seconds(1_234_567)).toBe('1.234567');
    expect(seconds(999)).toBe('0.000999');
    expect(clock(3_723_000_001)).toBe('1:02:03.000001');
    // 6,000 clips of 0.1 s: a float sum would end in …99999; whole µs add up exactly.
    expect(clock(Array.from({ length: 6000 }, () => 100_000).reduce((a, b) => a + b, 0))).toBe(
      '0:10:00.000000',
    );
  });

  it('escapes markup and drops characters XML cannot hold', () => {
    expect(esc(`<b>"Tom" & 'Jerry'</b>\u0001\uD800`)).toBe(
      '&lt;b&gt;&quot;Tom&quot; &amp; &apos;Jerry&apos;&lt;/b&gt;',
    );
    expect(esc('été 😀')).toBe('été 😀');
    // A lone low surrogate, and the two noncharacters XML 1.0 excludes.
    expect(esc('a\uDC00b\uFFFEc\uFFFFd')).toBe('abcd');
    expect(xmlText('\u0001\uDC00\uFFFF')).toBe('');
  });

  it('stamps dcterms:modified to the second, in UTC', () => {
    expect(modifiedStamp(new Date('2026-11-27T13:43:18.512Z'))).toBe('2026-11-27T13:43:18Z');
  });

  it('computes RFC 4122 version 5 UUIDs', () => {
    // RFC 4122 appendix B's DNS namespace; the value Python's uuid.uuid5(NAMESPACE_DNS, 'python.org') gives.
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'python.org')).toBe(
      '886313e1-3b8a-5372-9b90-0c9aee199e5d',
    );
  });

  it('names a book the same way on every download, and its sample differently', () => {
    const whole = bookIdentifier('le-petit-voyage', true);
    expect(whole).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(bookIdentifier('le-petit-voyage', true)).toBe(whole);
    expect(bookIdentifier('le-petit-voyage', false)).not.toBe(whole);
    expect(bookIdentifier('le-grand-voyage', true)).not.toBe(whole);
  });
});
