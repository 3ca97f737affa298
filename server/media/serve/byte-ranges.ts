import type { Request } from 'express';
import type { ByteRange } from '../store/media-store';

/** A suffix range (`-N`), as range-parser reads one: optional spaces around its parts. */
const SUFFIX = /^\s*-\s*(\d+)\s*$/;

/** Whether a Range header asks for a suffix (`bytes=-N`) anywhere in its list. */
export const hasSuffixRange = (header: string | undefined): boolean =>
  header !== undefined &&
  header.includes('=') &&
  header
    .slice(header.indexOf('=') + 1)
    .split(',')
    .some((spec) => SUFFIX.test(spec));

/**
 * Rewrites the request's Range header so that a suffix longer than the file (`bytes=-999999999` of a
 * 1,000-byte file) asks for the whole file (`bytes=0-`), which RFC 9110 §14.1.2 says it means: "If the
 * selected representation is shorter than the specified suffix-length, the entire representation is
 * used." range-parser (behind `req.range` and express.static) calls such a range unsatisfiable, a 416.
 * In place, because express.static reads the header itself. A suffix of 0 stays unsatisfiable, as the RFC
 * says (§14.1.1).
 */
export function fitSuffixRanges(req: Request, size: number): void {
  const header = req.headers.range;
  if (!hasSuffixRange(header)) return;
  const equals = header!.indexOf('=');
  const specs = header!.slice(equals + 1).split(',');
  req.headers.range =
    header!.slice(0, equals + 1) +
    specs.map((spec) => (Number(SUFFIX.exec(spec)?.[1] ?? 0) > size ? '0-' : spec)).join(',');
}

/**
 * The one byte range a request asks for within a file of `size` bytes (docs/api.md "Byte ranges"):
 * ranges that overlap or touch are merged (range-parser's `combine`, which RFC 9110 §14.2 allows), and
 * one range left is answered as a 206; ranges still apart, a header that is not `bytes=…`, or a malformed
 * one: undefined, the whole file as a 200 (we send no multipart/byteranges; a server MAY ignore Range).
 * `unsatisfiable` when no range falls within the file: a 416. The caller weighs If-Range first.
 */
export function requestedRange(req: Request, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!req.headers.range) return undefined;
  fitSuffixRanges(req, size);
  const ranges = req.range(size, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1)
    return { start: ranges[0].start, end: ranges[0].end };
  return undefined;
}
