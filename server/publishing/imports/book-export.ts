import { ForbiddenException, Injectable, NotFoundException, StreamableFile } from '@nestjs/common';
import type { PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Book } from '../../content/catalogue/entities/book.entity';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ChaptersRepository } from '../../content/catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { PhraseTranslationsRepository } from '../../content/catalogue/repository/phrase-translations.repository';
import { RuleFailed } from '../../platform/common/api-error';
import { COVER_WIDTHS, coverFile } from '../../platform/media/media-urls';
import { MediaService } from '../../platform/media/media.service';
import { storedEntries } from '../../platform/media/media-zip';
import {
  BOOK_FORMAT,
  BOOK_FORMAT_VERSION,
  BOOK_JSON,
  CHAPTER_JSON,
  chapterFolder,
  clipFileName,
  extensionOf,
  PHRASES_TSV,
  type BookJson,
  type ChapterJson,
} from './book-archive';
import type { ExportLinkAnswer } from './book-imports.dto';
import { SignedLinks } from '../../platform/common/signed-links';
import { toTsv } from './text-formats';

/** A file of the zip: made here (JSON, TSV) or read from the media store when its turn comes. */
type Item = { name: string; data: Buffer } | { name: string; media: string };

const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2) + '\n', 'utf8');

/** Media that is compressed already: deflating it again costs time and saves nothing. */
const STORED = /\.(mp3|m4a|aac|ogg|webp)$/i;

/**
 * A whole book as one zip (book-archive.ts): its fields, its cover and sample, and each chapter's text in
 * the chapter import's format with its clips. The zip is streamed, one file read at a time, never held in
 * memory; every file is checked before the first byte goes out.
 */
@Injectable()
export class BookExport {
  constructor(
    private readonly books: BooksRepository,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly translations: PhraseTranslationsRepository,
    private readonly media: MediaService,
    private readonly links: SignedLinks,
  ) {}

  /** A short-lived link that downloads the zip without the token, for a button that starts a download. */
  async link(bookCode: string): Promise<ExportLinkAnswer> {
    await this.find(bookCode);
    const { url, expiresAt } = this.links.sign(
      'book-export',
      bookCode,
      `/api/v1/book-export/${encodeURIComponent(bookCode)}`,
    );
    return { data: { url, expires_at: expiresAt.toISOString() } };
  }

  /** The download behind a signed link: the signature is the permission. */
  async signedZip(bookCode: string, exp: unknown, sig: unknown): Promise<StreamableFile> {
    if (!this.links.verify('book-export', bookCode, exp, sig))
      throw new ForbiddenException('This download link has expired or is not valid. Ask for a new one.');
    return this.zip(bookCode);
  }

  async zip(bookCode: string): Promise<StreamableFile> {
    const book = await this.find(bookCode);
    const items = await this.items(book);
    // Checked before the first byte goes out: once the headers are sent, a missing file could only cut
    // the download short, and a backup without a clip could not be imported again.
    const missing: string[] = [];
    await Promise.all(
      items.map(async (item) => {
        if ('media' in item && !(await this.media.exists(item.media))) missing.push(item.name);
      }),
    );
    if (missing.length)
      throw new RuleFailed(
        `The book cannot be exported: ${missing.length} of its files ${missing.length === 1 ? 'is' : 'are'} missing from storage (${missing.sort().slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}). Upload them again first.`,
      );
    return new StreamableFile(this.stream(items), {
      type: 'application/zip',
      disposition: `attachment; filename="${book.bookCode}.zip"`,
    });
  }

  private async find(bookCode: string): Promise<Book> {
    const book = await this.books.byCode(bookCode);
    if (!book) throw new NotFoundException('Book not found.');
    return book;
  }

  /** Every file of the zip, in the order it is written. */
  private async items(book: Book): Promise<Item[]> {
    const bookJson: BookJson = {
      format: BOOK_FORMAT,
      version: BOOK_FORMAT_VERSION,
      book_code: book.bookCode,
      title: book.title,
      author: book.author,
      narrated_by: book.narratedBy,
      hours: book.hours,
      minutes: book.minutes,
      description: book.description,
      difficulty: book.difficulty,
      sample_text: book.sampleText,
      language: book.language,
      cefr: book.cefr,
    };
    const items: Item[] = [
      { name: BOOK_JSON, data: json(bookJson) },
      // The largest size: the import re-encodes it, as every cover is.
      { name: 'cover.webp', media: coverFile(book.coverPath, COVER_WIDTHS[COVER_WIDTHS.length - 1]) },
      { name: `sample.${extensionOf(book.sampleAudioPath)}`, media: book.sampleAudioPath },
    ];
    const chapters = await this.chapters.ofBook(book.id);
    const phrases = await this.phrases.ofChapters(chapters.map((chapter) => chapter.id));
    const translations = await this.translations.ofPhrases(phrases.map((phrase) => phrase.id));
    for (const chapter of chapters) {
      const folder = chapterFolder(chapter.chapterNo);
      const own = phrases.filter((phrase) => phrase.chapterId === chapter.id);
      const clips = own.map((phrase, i) => clipFileName(i + 1, own.length, phrase.audioPath));
      const chapterJson: ChapterJson = { title: chapter.title, number: chapter.chapterNo };
      items.push(
        { name: `${folder}/${CHAPTER_JSON}`, data: json(chapterJson) },
        {
          name: `${folder}/${PHRASES_TSV}`,
          data: Buffer.from(
            toTsv(
              own.map((phrase, i) => ({
                phrase: phrase.phrase,
                dictionary: phrase.dictionary,
                audio: clips[i],
                translations: translations.get(phrase.id),
              })),
            ),
            'utf8',
          ),
        },
        ...own.map((phrase, i) => ({ name: `${folder}/${clips[i]}`, media: phrase.audioPath })),
      );
    }
    return items;
  }

  private stream(items: Item[]): PassThrough {
    const zip = new ZipFile();
    const addStored = storedEntries(zip, (path) => this.media.read(path));
    for (const item of items) {
      const compress = !STORED.test(item.name);
      if ('data' in item) zip.addBuffer(item.data, item.name, { compress });
      else addStored(item.name, item.media, compress);
    }
    zip.end();
    return zip.outputStream as PassThrough;
  }
}
