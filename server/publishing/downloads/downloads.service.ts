import { HttpException, Injectable, StreamableFile } from '@nestjs/common';
import type { Book } from '../../content/catalogue/entities/book.entity';
import type { AudiobookEdition } from '../formats/audiobook-build.entity';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { AudioMeasures } from '../formats/audio-measures';
import { EpubExport } from '../formats/epub/epub-export';
import { cuesOf, toLrc, toVtt } from '../formats/subtitles';
import { Access } from '../../content/access/access.service';
import type { User } from '../../accounts/users/user.entity';
import { fileName } from './audiobook-download';
import { DownloadAccess } from './download-access';
import { answering } from './download-errors';
import type { LinkQuery } from './downloads.dto';

/** The download routes' work (docs/formats.md "Downloads"); who gets what is DownloadAccess's. */
@Injectable()
export class DownloadsService {
  constructor(
    private readonly downloadAccess: DownloadAccess,
    private readonly access: Access,
    private readonly phrases: PhrasesRepository,
    private readonly measures: AudioMeasures,
    private readonly epubs: EpubExport,
  ) {}

  /** `gone`: aborted when the client leaves, which stops the checks before the first byte. */
  async epub(
    bookCode: string,
    user: User | undefined,
    query: LinkQuery,
    gone: AbortSignal,
  ): Promise<StreamableFile> {
    const reader = await this.downloadAccess.reader(bookCode, 'epub', user, query);
    const book = await this.downloadAccess.book(bookCode);
    const whole = await this.downloadAccess.whole(reader);
    const { stream, filename } = await answering(this.epubs.stream(book, whole, gone)).catch(
      (error: unknown) => {
        if (!gone.aborted) throw error;
        // Nobody is there to read an answer: a quiet 499 (nginx's "client closed request"), not a 500.
        throw new HttpException('The client closed the request.', 499);
      },
    );
    return new StreamableFile(stream, {
      type: 'application/epub+zip',
      disposition: `attachment; filename="${fileName(filename)}"`,
    });
  }

  /** Which M4B the reader gets: the book and its edition (the controller sends it: audiobook-download.ts). */
  async audiobook(
    bookCode: string,
    user: User | undefined,
    query: LinkQuery,
  ): Promise<{ book: Book; edition: AudiobookEdition }> {
    const reader = await this.downloadAccess.reader(bookCode, 'audiobook', user, query);
    const book = await this.downloadAccess.book(bookCode);
    return { book, edition: (await this.downloadAccess.whole(reader)) ? 'full' : 'sample' };
  }

  /** A chapter's cues, under the chapter's own access: 401 for a visitor, 403 for a member without it. */
  async subtitles(
    bookCode: string,
    chapterNo: string,
    kind: 'vtt' | 'lrc',
    user: User | undefined,
  ): Promise<StreamableFile> {
    const { book, chapters, index } = await this.access.require(
      user,
      { chapter: { bookCode, chapterNo } },
      'download',
    );
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
