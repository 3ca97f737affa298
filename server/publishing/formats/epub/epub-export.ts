import { Inject, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Book } from '../../../content/catalogue/entities/book.entity';
import { absolute } from '../../../content/catalogue/public-pages';
import { firstChapterNo, isFreeChapter } from '../../../content/catalogue/free-chapters';
import { ChaptersRepository } from '../../../content/catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../../../content/catalogue/repository/phrases.repository';
import { RuleFailed } from '../../../platform/common/api-error';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { FfmpegError } from '../../imports/ffmpeg';
import { COVER_WIDTHS, coverFile } from '../../../platform/media/media-urls';
import { MediaService } from '../../../platform/media/media.service';
import { ObjectNotFoundError } from '../../../platform/media/store/media-store';
import { eachLimited, UndecodableAudioError } from '../audio-measures';
import { EpubClips, type EpubClip } from '../epub-clips';
import { bookIdentifier } from './opf';
import { xmlText } from './xml';
import { writeEpub, type EpubChapter, type EpubPlan } from './epub-writer';

/** The language when the book has none: BCP 47 "und" (undetermined), a valid tag EPUBCheck accepts. */
export const UNKNOWN_LANGUAGE = 'und';

/**
 * Existence checks at once: a bucket answers each HEAD in a round trip, so a 6,000-clip book takes about
 * 6000 / 32 round trips (a few seconds) before the first byte.
 */
const HEAD_CONCURRENCY = 32;

/** The cover's width inside the EPUB: the largest stored one; a reading app's cover needs no more. */
const COVER_WIDTH = 960;

const FFMPEG_MISSING = 'Making an EPUB needs ffmpeg. Install it with: sudo apt-get install -y ffmpeg';

/** EPUB 3 with Media Overlays, streamed (docs/formats.md "EPUB 3 with Media Overlays"). */
@Injectable()
export class EpubExport {
  private readonly logger = new Logger(EpubExport.name);

  constructor(
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly media: MediaService,
    private readonly clips: EpubClips,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The chapters an EPUB of `book` holds (every chapter when `whole`, else the free one), with the cover and
   * every clip checked in storage: RuleFailed (422) names what is missing. The download link's checks
   * (publishing/downloads/download-checks.ts) and the download itself both start here, so they answer alike.
   */
  async prepare(
    book: Book,
    whole: boolean,
    signal?: AbortSignal,
  ): Promise<{ chapters: EpubChapter[]; cover: string; modified: Date }> {
    const all = await this.chapters.ofBook(book.id);
    const free = firstChapterNo(all.map((chapter) => chapter.chapterNo));
    const included = whole ? all : all.filter((chapter) => isFreeChapter(chapter.chapterNo, free));
    if (!included.length) throw new RuleFailed('This book has no chapters yet, so it has no EPUB.');
    // One query for every included chapter's phrases, in reading order; grouped here.
    const rows = await this.phrases.ofChapters(included.map((chapter) => chapter.id));
    const byChapter = new Map(included.map((chapter) => [chapter.id, [] as EpubChapter['phrases']]));
    // The latest change among what still exists: deleting a phrase or a chapter moves nothing forward, so
    // the date can go back (docs/formats.md "EPUB 3 with Media Overlays").
    let modified = book.updatedAt;
    for (const row of rows) {
      byChapter
        .get(row.chapterId)!
        .push({ phrase: row.phrase, dictionary: row.dictionary, audioPath: row.audioPath });
      if (row.updatedAt > modified) modified = row.updatedAt;
    }
    for (const chapter of included) if (chapter.updatedAt > modified) modified = chapter.updatedAt;
    const chapters: EpubChapter[] = included.map((chapter) => ({
      chapterNo: chapter.chapterNo,
      title: chapter.title,
      phrases: byChapter.get(chapter.id)!,
    }));
    const cover = coverFile(book.coverPath, COVER_WIDTHS[COVER_WIDTHS.length - 1]);
    await this.assertStored(cover, chapters, signal);
    return { chapters, cover, modified };
  }

  /**
   * The book's EPUB, streamed: every chapter when `whole`, else the sample (the free chapter, and a last
   * page saying so). Missing files and a bad cover are found before the first byte (RuleFailed, 422).
   * `signal`: the request's close (the route passes it), which stops the checks before the first byte.
   */
  async stream(
    book: Book,
    whole: boolean,
    signal?: AbortSignal,
  ): Promise<{ stream: Readable; filename: string }> {
    const { chapters, cover, modified } = await this.prepare(book, whole, signal);
    const jpeg = await this.coverJpeg(cover);
    // A title of nothing XML can hold would be an empty dc:title, which EPUBCheck refuses.
    const title = xmlText(book.title).trim() || book.bookCode;
    const plan: EpubPlan = {
      book: {
        identifier: bookIdentifier(book.bookCode, whole),
        title: whole ? title : `${title} (sample)`,
        language: book.language ?? UNKNOWN_LANGUAGE,
        author: book.author,
        narrator: book.narratedBy,
        modified,
      },
      chapters,
      firstClips: await this.firstClips(chapters[0], signal),
      sampleEnd: whole
        ? null
        : {
            title,
            author: book.author,
            url: absolute(this.config.publicUrl, `/book-detail/${encodeURIComponent(book.bookCode)}`),
          },
      cover: jpeg,
    };
    const stream = writeEpub(
      plan,
      {
        clips: (paths, stop) => this.clips.forEpub(paths, stop),
        readClip: (clip) => this.clips.read(clip),
      },
      (error) => this.logger.error(`The EPUB of ${book.bookCode} stopped midway`, error.stack),
    );
    return { stream, filename: `${book.bookCode}${whole ? '' : '-sample'}.epub` };
  }

  /**
   * Every clip and the cover, checked before the first byte goes out: once the headers are sent, a missing
   * file could only cut the download short.
   */
  private async assertStored(cover: string, chapters: EpubChapter[], signal?: AbortSignal): Promise<void> {
    const files = new Map<string, string>([[cover, 'the cover']]);
    for (const chapter of chapters)
      chapter.phrases.forEach((phrase, k) => {
        if (!files.has(phrase.audioPath))
          files.set(phrase.audioPath, `chapter ${chapter.chapterNo}, phrase ${k + 1} (${phrase.audioPath})`);
      });
    const missing: string[] = [];
    // A store that is down throws StoreUnavailableError: the error filter answers 503 with a message.
    await eachLimited(
      [...files.keys()],
      HEAD_CONCURRENCY,
      async (key) => {
        if (!(await this.media.exists(key))) missing.push(files.get(key)!);
      },
      signal,
    );
    if (!missing.length) return;
    // Numeric order: chapter 2, phrase 9 before chapter 2, phrase 10 (and the cover first).
    missing.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    throw new RuleFailed(
      `The EPUB cannot be made: ${missing.length} of the book's files ${missing.length === 1 ? 'is' : 'are'} missing from storage (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}). Upload them again first.`,
    );
  }

  /** The cover as JPEG (EPUBCheck 4 knows no WebP), read and converted whole before the first byte. */
  private async coverJpeg(cover: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.media.read(cover)) chunks.push(chunk as Buffer);
    } catch (error) {
      // Deleted since the check: the same answer as a cover missing then.
      if (error instanceof ObjectNotFoundError)
        throw new RuleFailed(
          `The EPUB cannot be made: the cover is missing from storage. Upload it again first.`,
        );
      throw error;
    }
    try {
      return await sharp(Buffer.concat(chunks))
        .resize({ width: COVER_WIDTH, withoutEnlargement: true })
        .jpeg({ quality: 85 })
        .toBuffer();
    } catch {
      throw new RuleFailed(
        "The EPUB cannot be made: the book's cover is not an image that can be read. Upload the cover again.",
      );
    }
  }

  /** The first chapter's clips, so that what stops the EPUB altogether is an answer, not a cut download. */
  private async firstClips(chapter: EpubChapter, signal?: AbortSignal): Promise<Map<string, EpubClip>> {
    try {
      return await this.clips.forEpub(
        chapter.phrases.map((phrase) => phrase.audioPath),
        signal,
      );
    } catch (error) {
      if (error instanceof FfmpegError && error.kind === 'missing')
        throw new ServiceUnavailableException(FFMPEG_MISSING);
      if (error instanceof UndecodableAudioError)
        throw new RuleFailed(
          `The EPUB cannot be made: a clip is not audio that can be decoded (${error.file}). Upload it again.`,
        );
      if (error instanceof ObjectNotFoundError)
        throw new RuleFailed(`The EPUB cannot be made: ${error.message}. Upload it again first.`);
      throw error;
    }
  }
}
