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
 * The Range header as range-parser (behind `req.range` and express.static) should read it for a file of
 * `size` bytes, where it reads suffixes otherwise than RFC 9110 §14.1:
 * - a suffix longer than the file (`bytes=-999999999` of a 1,000-byte file) asks for the whole file
 *   (`bytes=0-`): "If the selected representation is shorter than the specified suffix-length, the entire
 *   representation is used" (§14.1.2); range-parser calls it unsatisfiable, a 416;
 * - of an empty file, a suffix that is not 0 is satisfiable (§14.1.1), yet no Content-Range can name
 *   zero bytes: undefined, no Range, the empty file as a 200.
 *
 * A suffix of 0 stays unsatisfiable, as the RFC says. Built anew: the request's header is the client's,
 * read again against another size when the audiobook is asked again after a replacement.
 */
export function fittedRange(header: string | undefined, size: number): string | undefined {
  if (!hasSuffixRange(header)) return header;
  const equals = header!.indexOf('=');
  const specs = header!.slice(equals + 1).split(',');
  const suffixes = specs.map((spec) => Number(SUFFIX.exec(spec)?.[1] ?? 0));
  if (size === 0) return suffixes.some((suffix) => suffix > 0) ? undefined : header;
  return header!.slice(0, equals + 1) + specs.map((spec, i) => (suffixes[i] > size ? '0-' : spec)).join(',');
}

/**
 * The one byte range a request asks for within a file of `size` bytes (docs/api.md "Byte ranges"):
 * ranges that overlap or touch are merged (range-parser's `combine`, which RFC 9110 §14.2 allows), and
 * one range left is answered as a 206; ranges still apart, a header that is not `bytes=…`, or a malformed
 * one: undefined, the whole file as a 200 (we send no multipart/byteranges; a server MAY ignore Range).
 * `unsatisfiable` when no range falls within the file: a 416. The caller weighs If-Range first. The
 * request is left as it came.
 */
export function requestedRange(req: Request, size: number): ByteRange | 'unsatisfiable' | undefined {
  const range = fittedRange(req.headers.range, size);
  if (!range) return undefined;
  // `req.range` (express's own range-parser) reads the request's header: here, a view of the request
  // with the fitted one.
  const fitted = Object.create(req, { headers: { value: { ...req.headers, range } } }) as Request;
  const ranges = fitted.range(size, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1)
    return { start: ranges[0].start, end: ranges[0].end };
  return undefined;
}
