import express, { type Request } from 'express';
import { fittedRange, hasSuffixRange, requestedRange } from './byte-ranges';

/** A request as express makes one (its `req.range` and `req.get`), with this Range header. */
const requestWith = (range: string | undefined): Request =>
  Object.assign(Object.create(express.request) as Request, { headers: range === undefined ? {} : { range } });

describe(fittedRange.name, () => {
  it('asks for the whole file when a suffix is longer than it (RFC 9110 §14.1.2)', () => {
    expect(fittedRange('bytes=-999999999', 1000)).toBe('bytes=0-');
    expect(fittedRange('bytes= - 1001 ', 1000)).toBe('bytes=0-');
    expect(fittedRange('bytes=0-9,-5000', 1000)).toBe('bytes=0-9,0-');
    expect(fittedRange('bytes=-99999999999999999999999', 1000)).toBe('bytes=0-');
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
      expect(fittedRange(range, 1000)).toBe(range);
    expect(fittedRange(undefined, 1000)).toBeUndefined();
    expect(fittedRange('-5000', 1000)).toBe('-5000');
  });

  it('drops a non-zero suffix of an empty file (satisfiable, RFC 9110 §14.1.1), and keeps any other', () => {
    expect([fittedRange('bytes=-5', 0), fittedRange('bytes=0-9, -1', 0)]).toEqual([undefined, undefined]);
    for (const range of ['bytes=-0', 'bytes=0-', 'bytes=0-9']) expect(fittedRange(range, 0)).toBe(range);
  });
});

describe(requestedRange.name, () => {
  it('reads the same request anew against another size: the audiobook asked again after a replacement', () => {
    const req = requestWith('bytes=-1500');
    expect(requestedRange(req, 1000)).toEqual({ start: 0, end: 999 });
    expect(requestedRange(req, 2000)).toEqual({ start: 500, end: 1999 });
    expect(req.headers.range).toBe('bytes=-1500');
  });

  it('answers a non-zero suffix of an empty file whole (a 200), and any other range of it with a 416', () => {
    expect([
      requestedRange(requestWith('bytes=-5'), 0),
      requestedRange(requestWith('bytes=0-9,-1'), 0),
    ]).toEqual([undefined, undefined]);
    for (const range of ['bytes=-0', 'bytes=0-', 'bytes=0-9'])
      expect([range, requestedRange(requestWith(range), 0)]).toEqual([range, 'unsatisfiable']);
  });

  it('merges ranges that touch, and leaves ranges apart, malformed or absent to the whole file', () => {
    expect(requestedRange(requestWith('bytes=0-9,10-19'), 1000)).toEqual({ start: 0, end: 19 });
    for (const range of ['bytes=0-9,100-109', 'bytes=x', 'items=0-5', undefined])
      expect([range, requestedRange(requestWith(range), 1000)]).toEqual([range, undefined]);
  });
});

describe(hasSuffixRange.name, () => {
  it('finds a suffix anywhere in the list, and nothing in a header without one', () => {
    expect([hasSuffixRange('bytes=0-9, -5'), hasSuffixRange('bytes=0-9'), hasSuffixRange(undefined)]).toEqual(
      [true, false, false],
    );
  });
});
