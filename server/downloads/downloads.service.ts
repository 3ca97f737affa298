import {
  ForbiddenException,
  HttpException,
  HttpStatus,
  Injectable,
  ServiceUnavailableException,
  StreamableFile,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { PhrasesRepository } from '../catalogue/repository/phrases.repository';
import { RuleFailed } from '../common/api-error';
import { AudioMeasures, UndecodableAudioError } from '../formats/audio-measures';
import { Audiobooks } from '../formats/audiobook/audiobooks';
import { EpubExport } from '../formats/epub/epub-export';
import { cuesOf, toLrc, toVtt } from '../formats/subtitles';
import { FfmpegError } from '../imports/ffmpeg';
import { ObjectNotFoundError, type ByteRange } from '../media/store/media-store';
import { PREMIUM_CHAPTER, SIGN_IN_TO_READ } from '../reading/access';
import { ReadingService } from '../reading/reading.service';
import type { User } from '../users/user.entity';
import { DownloadAccess } from './download-access';
import type { LinkQuery } from './downloads.dto';

export const FFMPEG_NEEDED =
  'This download needs ffmpeg on the server, which is not installed. Ask the administrator to install it (sudo apt-get install -y ffmpeg).';

/** A file name for Content-Disposition: book codes are slugs already; anything else becomes `_`. */
const fileName = (name: string) => name.replace(/[^\w.-]/g, '_');

/**
 * What the audio tools' failures mean to a downloader: no ffmpeg is the server's (503), a clip that is
 * missing or not audio is the book's, for its administrator to fix (422, naming it). Never a 500.
 */
function asAnswer(error: unknown): unknown {
  if (error instanceof FfmpegError && error.kind === 'missing')
    return new ServiceUnavailableException(FFMPEG_NEEDED);
  if (error instanceof UndecodableAudioError)
    return new RuleFailed(
      `This book cannot be downloaded now: one of its clips is not audio (${error.file}).`,
    );
  if (error instanceof ObjectNotFoundError)
    return new RuleFailed('This book cannot be downloaded now: one of its clips is missing from storage.');
  return error;
}

const answering = <T>(work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    throw asAnswer(error);
  });

/** The download routes' work (docs/formats.md "Downloads"); who gets what is DownloadAccess's. */
@Injectable()
export class DownloadsService {
  constructor(
    private readonly access: DownloadAccess,
    private readonly reading: ReadingService,
    private readonly phrases: PhrasesRepository,
    private readonly measures: AudioMeasures,
    private readonly epubs: EpubExport,
    private readonly audiobooks: Audiobooks,
  ) {}

  async epub(bookCode: string, user: User | undefined, query: LinkQuery): Promise<StreamableFile> {
    const reader = await this.access.reader(bookCode, 'epub', user, query);
    const book = await this.access.book(bookCode);
    const { stream, filename } = await answering(this.epubs.stream(book, await this.access.whole(reader)));
    return new StreamableFile(stream, {
      type: 'application/epub+zip',
      disposition: `attachment; filename="${fileName(filename)}"`,
    });
  }

  /**
   * The M4B, or 202 while it is made. Written here rather than returned: Nest would answer 200 over a
   * 202 or 206 set on the response.
   */
  async audiobook(
    bookCode: string,
    user: User | undefined,
    query: LinkQuery,
    req: Request,
    res: Response,
  ): Promise<void> {
    const reader = await this.access.reader(bookCode, 'audiobook', user, query);
    const book = await this.access.book(bookCode);
    const whole = await this.access.whole(reader);
    const answer = await answering(this.audiobooks.get(book, whole ? 'full' : 'sample'));
    if (!answer.ready) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(answer.retryAfterSeconds))));
      res.status(HttpStatus.ACCEPTED).json({ message: answer.message });
      return;
    }
    const range = this.range(req, res, answer.bytes);
    if (req.method === 'HEAD') {
      // Express answers HEAD with the GET route: the headers tell a player the size, no bytes are read.
      this.fileHeaders(res, answer, range);
      res.end();
      return;
    }
    const body = await answering(this.audiobooks.read(answer.key, range));
    this.fileHeaders(res, answer, range);
    // A body cut short (the store or the client went away) ends with a destroyed socket, never a short 200.
    await pipeline(body, res).catch(() => res.destroy());
  }

  private fileHeaders(
    res: Response,
    answer: { bytes: number; filename: string },
    range: ByteRange | undefined,
  ) {
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Type', 'audio/mp4');
    res.setHeader('Content-Disposition', `attachment; filename="${fileName(answer.filename)}"`);
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : answer.bytes));
    if (range)
      res
        .status(HttpStatus.PARTIAL_CONTENT)
        .setHeader('Content-Range', `bytes ${range.start}-${range.end}/${answer.bytes}`);
  }

  /** One byte range as Express reads it; several or a malformed header are answered whole, as send does. */
  private range(req: Request, res: Response, size: number): ByteRange | undefined {
    if (!req.headers.range) return undefined;
    const ranges = req.range(size, { combine: true });
    if (ranges === -1) {
      res.setHeader('Content-Range', `bytes */${size}`);
      throw new HttpException(
        { message: `This range is not within the file (${size} bytes).` },
        HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
      );
    }
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1)
      return { start: ranges[0].start, end: ranges[0].end };
    return undefined;
  }

  /** A chapter's cues, under the chapter's own access: 401 for a visitor, 403 for a member without it. */
  async subtitles(
    bookCode: string,
    chapterNo: string,
    kind: 'vtt' | 'lrc',
    user: User | undefined,
  ): Promise<StreamableFile> {
    const { book, chapters, index, access } = await this.reading.locate(bookCode, chapterNo, user);
    if (access === 'sign-in') throw new UnauthorizedException(SIGN_IN_TO_READ);
    if (access === 'upgrade') throw new ForbiddenException(PREMIUM_CHAPTER);
    const chapter = chapters[index];
    const phrases = await this.phrases.ofChapter(chapter.id);
    const keys = phrases.map((phrase) => phrase.audioPath);
    const lengths = await answering(this.measures.lengths(keys));
    const cues = cuesOf(
      phrases.map((phrase) => phrase.phrase),
      keys.map((key) => lengths.get(key)!),
    );
    const text =
      kind === 'vtt'
        ? toVtt(cues)
        : toLrc(cues, {
            title: `${book.title}: ${chapter.title}`,
            artist: book.author,
            language: book.language,
          });
    return new StreamableFile(Buffer.from(text, 'utf8'), {
      type: kind === 'vtt' ? 'text/vtt; charset=utf-8' : 'text/plain; charset=utf-8',
      disposition: `attachment; filename="${fileName(`${book.bookCode}-chapter-${chapter.chapterNo}.${kind}`)}"`,
    });
  }
}
