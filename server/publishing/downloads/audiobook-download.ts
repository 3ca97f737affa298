import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { Book } from '../../content/catalogue/entities/book.entity';
import type { AudiobookEdition } from '../formats/audiobook-build.entity';
import { Audiobooks, type AudiobookAnswer } from '../formats/audiobook/audiobooks';
import { requestedRange } from '../../platform/media/serve/byte-ranges';
import { ObjectNotFoundError, type ByteRange } from '../../platform/media/store/media-store';
import { tryAgainIn } from '../../platform/common/api-error';
import { answering } from './download-errors';
import { isNavigation, smallPage } from './navigation';

type Ready = Extract<AudiobookAnswer, { ready: true }>;
const REPLACED = 'The audiobook was just replaced by a newer one. Try again in a second.';
/** How a client going away shows in a pipeline: not worth a log line. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/** A file name for Content-Disposition: book codes are slugs already; anything else becomes `_`. */
export const fileName = (name: string) => name.replace(/[^\w.-]/g, '_');

/**
 * The M4B over HTTP (docs/formats.md "Downloads"): 202 (or a page for a browser) while it is made, then
 * the file with a strong ETag naming the edition and its version, byte ranges, and If-Range, so that a
 * download resumed after a rebuild, or across editions after a plan lapsed, starts again whole instead
 * of joining two files. Written here rather than returned: Nest would answer 200 over a 202 or 206.
 */
@Injectable()
export class AudiobookDownload {
  private readonly logger = new Logger(AudiobookDownload.name);

  constructor(private readonly audiobooks: Audiobooks) {}

  async send(book: Book, edition: AudiobookEdition, signed: boolean, req: Request, res: Response) {
    // The file may be replaced (and the old one deleted) between get and read: asked again once.
    for (let attempt = 0; ; attempt += 1) {
      const answer = await answering(this.audiobooks.get(book, edition));
      if (!answer.ready) return this.notReady(book, answer, signed, req, res);
      const etag = `"${edition}-${answer.version}"`;
      res.setHeader('ETag', etag);
      if (this.unchanged(req, etag)) {
        res.status(HttpStatus.NOT_MODIFIED).end();
        return;
      }
      const range = this.range(req, res, answer.bytes, etag);
      if (req.method === 'HEAD') {
        // Express answers HEAD with the GET route: the headers tell a player the size, no bytes are read.
        this.fileHeaders(res, answer, range);
        res.end();
        return;
      }
      let body;
      try {
        body = await this.audiobooks.read(answer.key, range);
      } catch (error) {
        if (!(error instanceof ObjectNotFoundError)) throw error;
        if (attempt === 0) continue;
        throw tryAgainIn(1, REPLACED);
      }
      this.fileHeaders(res, answer, range);
      // A body cut short (the store or the client went away) ends with a destroyed socket, never a short
      // 200; the store's failures are logged, a listener closing the player is not.
      await pipeline(body, res).catch((error: NodeJS.ErrnoException) => {
        if (!CLIENT_GONE.has(error.code ?? ''))
          this.logger.warn(`The M4B of ${book.bookCode} stopped midway: ${error.message}`);
        res.destroy();
      });
      return;
    }
  }

  /**
   * 202 with `{ message }` for a script polling (the page's readiness check, a reading app); a browser's
   * navigation (or a signed link followed) gets 503 and a small page instead, which it shows rather than
   * saving a few bytes of JSON as the audiobook.
   */
  private notReady(
    book: Book,
    answer: Extract<AudiobookAnswer, { ready: false }>,
    signed: boolean,
    req: Request,
    res: Response,
  ): void {
    const seconds = Math.max(1, Math.ceil(answer.retryAfterSeconds));
    res.setHeader('Retry-After', String(seconds));
    if (signed || (isNavigation(req) && !req.headers.range)) {
      const message = `Your audiobook is being made; try again in ${seconds} s.`;
      res
        .status(HttpStatus.SERVICE_UNAVAILABLE)
        .type('html')
        .send(smallPage('Your audiobook is being made', message, book.bookCode));
      return;
    }
    res.status(HttpStatus.ACCEPTED).json({ message: answer.message });
  }

  /** If-None-Match naming this very file: the client has it already. */
  private unchanged(req: Request, etag: string): boolean {
    const given = req.headers['if-none-match'];
    if (!given || req.headers.range) return false;
    return given
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === etag || tag === '*');
  }

  private fileHeaders(res: Response, answer: Ready, range: ByteRange | undefined) {
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Type', 'audio/mp4');
    res.setHeader('Content-Disposition', `attachment; filename="${fileName(answer.filename)}"`);
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : answer.bytes));
    if (range)
      res
        .status(HttpStatus.PARTIAL_CONTENT)
        .setHeader('Content-Range', `bytes ${range.start}-${range.end}/${answer.bytes}`);
  }

  /**
   * The byte range asked for, as /media reads one (platform/media/serve/byte-ranges.ts); an If-Range that is not
   * this file's strong ETag (a date, or another version's tag) is answered whole, as RFC 9110 says.
   */
  private range(req: Request, res: Response, size: number, etag: string): ByteRange | undefined {
    if (!req.headers.range) return undefined;
    const ifRange = req.get('if-range');
    if (ifRange !== undefined && ifRange.trim() !== etag) return undefined;
    const range = requestedRange(req, size);
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${size}`);
      throw new HttpException(
        { message: `This range is not within the file (${size} bytes).` },
        HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
      );
    }
    return range;
  }
}
