import { ForbiddenException, HttpException, HttpStatus, Injectable, StreamableFile } from '@nestjs/common';
import type { Request, Response } from 'express';
import { BASIC_REALM } from '../app-passwords/reading-app-auth';
import { PhrasesRepository } from '../catalogue/repository/phrases.repository';
import { AudioMeasures } from '../formats/audio-measures';
import { EpubExport } from '../formats/epub/epub-export';
import { cuesOf, toLrc, toVtt } from '../formats/subtitles';
import { PREMIUM_CHAPTER, SIGN_IN_TO_READ } from '../reading/access';
import { ReadingService } from '../reading/reading.service';
import type { User } from '../users/user.entity';
import { AudiobookDownload, fileName } from './audiobook-download';
import { DownloadAccess } from './download-access';
import { AnswerWithHeaders, answering } from './download-errors';
import type { LinkQuery } from './downloads.dto';

/** The download routes' work (docs/formats.md "Downloads"); who gets what is DownloadAccess's. */
@Injectable()
export class DownloadsService {
  constructor(
    private readonly access: DownloadAccess,
    private readonly reading: ReadingService,
    private readonly phrases: PhrasesRepository,
    private readonly measures: AudioMeasures,
    private readonly epubs: EpubExport,
    private readonly m4b: AudiobookDownload,
  ) {}

  async epub(
    bookCode: string,
    user: User | undefined,
    query: LinkQuery,
    res: Response,
  ): Promise<StreamableFile> {
    const reader = await this.access.reader(bookCode, 'epub', user, query);
    const book = await this.access.book(bookCode);
    // A client that leaves during the checks before the first byte stops them (`res`, not `req`: a
    // request's 'close' fires once its body is read). After the first byte, Nest destroys the stream.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const whole = await this.access.whole(reader);
    const { stream, filename } = await answering(this.epubs.stream(book, whole, gone.signal)).catch(
      (error: unknown) => {
        if (!gone.signal.aborted) throw error;
        // Nobody is there to read an answer: a quiet 499 (nginx's "client closed request"), not a 500.
        throw new HttpException('The client closed the request.', 499);
      },
    );
    return new StreamableFile(stream, {
      type: 'application/epub+zip',
      disposition: `attachment; filename="${fileName(filename)}"`,
    });
  }

  /** The M4B of the edition the reader gets (audiobook-download.ts for how it is sent). */
  async audiobook(
    bookCode: string,
    user: User | undefined,
    query: LinkQuery,
    req: Request,
    res: Response,
  ): Promise<void> {
    const reader = await this.access.reader(bookCode, 'audiobook', user, query);
    const book = await this.access.book(bookCode);
    const edition = (await this.access.whole(reader)) ? 'full' : 'sample';
    await this.m4b.send(book, edition, query.sig !== undefined, req, res);
  }

  /** A chapter's cues, under the chapter's own access: 401 for a visitor, 403 for a member without it. */
  async subtitles(
    bookCode: string,
    chapterNo: string,
    kind: 'vtt' | 'lrc',
    user: User | undefined,
  ): Promise<StreamableFile> {
    const { book, chapters, index, access } = await this.reading.locate(bookCode, chapterNo, user);
    // A reading app that sent nothing is told it may sign in with Basic (docs/formats.md "Who is asking").
    if (access === 'sign-in')
      throw new AnswerWithHeaders(HttpStatus.UNAUTHORIZED, SIGN_IN_TO_READ, {
        'WWW-Authenticate': BASIC_REALM,
      });
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
