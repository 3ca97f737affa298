import type { OutgoingHttpHeaders } from 'node:http';
import type { Response } from 'express';
import type { CapturedResponse } from './page-cache';

/**
 * Lets `run` answer the request, but keeps what it writes instead of sending it. Resolves with the
 * response, or null when `run` passed the request on (calls `pass`); a promise `run` returns is waited
 * for. The response object is borrowed and handed back untouched, so the caller can send the kept (or
 * cached) answer itself.
 */
export function captureResponse(
  res: Response,
  run: (pass: () => void) => unknown,
): Promise<CapturedResponse | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status: number | null = null;
    let headers: OutgoingHttpHeaders = {};
    // eslint-disable-next-line @typescript-eslint/unbound-method -- only put back on res (restore), never called
    const { writeHead, write, end } = res;
    // Headers set with setHeader are kept in the response too: put back as they were (the request id and
    // security headers), so that what is sent next (a cached page, a 304) carries only its own.
    const before = res.getHeaders();
    const restore = () => {
      Object.assign(res, { writeHead, write, end });
      for (const name of res.getHeaderNames()) if (!(name in before)) res.removeHeader(name);
      for (const [name, value] of Object.entries(before))
        if (value !== undefined && res.getHeader(name) !== value) res.setHeader(name, value);
    };
    const toBuffer = (chunk: unknown) =>
      Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string | Uint8Array);
    Object.assign(res, {
      writeHead(code: number, ...rest: unknown[]) {
        status = code;
        headers = (rest.find((arg) => typeof arg === 'object' && arg !== null) as OutgoingHttpHeaders) ?? {};
        return res;
      },
      write(chunk: unknown, ...rest: unknown[]) {
        chunks.push(toBuffer(chunk));
        (rest.find((arg) => typeof arg === 'function') as (() => void) | undefined)?.();
        return true;
      },
      end(chunk?: unknown) {
        if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk));
        // Express sets headers one by one (res.json), Astro passes them to writeHead: keep both.
        const captured = {
          status: status ?? res.statusCode,
          headers: { ...res.getHeaders(), ...headers },
          body: Buffer.concat(chunks),
        };
        restore();
        resolve(captured);
        return res;
      },
    });
    const pass = () => {
      restore();
      resolve(null);
    };
    Promise.resolve()
      .then(() => run(pass))
      .catch((error: unknown) => {
        restore();
        reject(error);
      });
  });
}

export function sendCaptured(res: Response, captured: CapturedResponse): void {
  res.writeHead(captured.status, captured.headers);
  res.end(captured.body);
}
