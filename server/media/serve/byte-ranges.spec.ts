import type { Request } from 'express';
import { fitSuffixRanges, hasSuffixRange } from './byte-ranges';

const fitted = (range: string | undefined, size: number) => {
  const req = { headers: { range } } as unknown as Request;
  fitSuffixRanges(req, size);
  return req.headers.range;
};

describe(fitSuffixRanges.name, () => {
  it('asks for the whole file when a suffix is longer than it (RFC 9110 §14.1.2)', () => {
    expect(fitted('bytes=-999999999', 1000)).toBe('bytes=0-');
    expect(fitted('bytes= - 1001 ', 1000)).toBe('bytes=0-');
    expect(fitted('bytes=0-9,-5000', 1000)).toBe('bytes=0-9,0-');
    expect(fitted('bytes=-99999999999999999999999', 1000)).toBe('bytes=0-');
  });

  it('leaves every other range as the client wrote it', () => {
    for (const range of [
      'bytes=-1000',
      'bytes=-10',
      'bytes=-0',
      'bytes=0-',
      'bytes=5-9',
      'bytes=x',
      'items=-5',
    ])
      expect(fitted(range, 1000)).toBe(range);
    expect(fitted(undefined, 1000)).toBeUndefined();
    expect(fitted('-5000', 1000)).toBe('-5000');
  });
});

describe(hasSuffixRange.name, () => {
  it('finds a suffix anywhere in the list, and nothing in a header without one', () => {
    expect([hasSuffixRange('bytes=0-9, -5'), hasSuffixRange('bytes=0-9'), hasSuffixRange(undefined)]).toEqual(
      [true, false, false],
    );
  });
});
