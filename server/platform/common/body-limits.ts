/**
 * Every limit on what a client may send, in one place (docs/security.md lists them). The admin upload
 * forms import the file limits too, so the browser refuses an oversize file before sending it.
 */
export const KB = 1024;
export const MB = 1024 * KB;

/** The files each upload route takes, and the most bytes each may have. */
export const BOOK_UPLOADS = { book_image: 5 * MB, sample_audio: 100 * MB };
export const PHRASE_UPLOADS = { line_audio: 10 * MB };

/** JSON, url-encoded and text bodies, on every route: enough for any form of ours, far from a flood. */
export const BODY_LIMIT = 100 * KB;

/**
 * The text fields of a multipart body. Routes that take files allow more, since a phrase's glossary
 * rides along with its clip; every other route gets the same budget as a JSON body.
 */
export const UPLOAD_FIELDS_LIMIT = 1 * MB;

/** Room for the boundaries and headers of a multipart body's parts. */
const PART_HEADERS = 64 * KB;

/** The most a multipart body may carry in all: every file at its limit, the text fields and the framing. */
export function multipartLimit(files: Record<string, number>): number {
  const fileBytes = Object.values(files).reduce((sum, limit) => sum + limit, 0);
  return fileBytes + (fileBytes > 0 ? UPLOAD_FIELDS_LIMIT : BODY_LIMIT) + PART_HEADERS;
}

/** How deep a JSON body may nest. No request of ours goes past 3; validation recurses per level. */
export const MAX_BODY_DEPTH = 32;

/**
 * After refusing a body, the server answers, half-closes the connection, reads on for at most this much
 * and cuts the connection this long after, so the client sees the answer rather than a reset
 * (http/body/unread-body.ts).
 */
export const LINGER_BYTES = 256 * KB;
export const LINGER_MS = 2_000;
