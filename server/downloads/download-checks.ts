import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { Book } from '../books/book.entity';
import { firstChapterNo, isFreeChapter } from '../catalogue/free-chapters';
import { ChaptersRepository } from '../catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../catalogue/repository/phrases.repository';
import { RuleFailed } from '../common/api-error';
import { eachLimited } from '../formats/audio-measures';
import { ffmpegAvailable } from '../imports/ffmpeg';
import { COVER_WIDTHS, coverFile } from '../media/media-urls';
import { MediaService } from '../media/media.service';
import type { DownloadFormat } from './downloads.dto';
import { FFMPEG_NEEDED } from './download-errors';

/** Existence checks at once, as the EPUB writer makes them (formats/epub/epub-export.ts). */
const HEAD_CONCURRENCY = 8;

/**
 * The checks a download button's link answers at once (docs/formats.md "Downloads"), so that the page
 * shows the reason instead of sending the browser to a file that would be an error: no ffmpeg (503), and
 * for the EPUB a book without chapters or with a clip or cover missing from storage (422), the same
 * checks the EPUB writer makes before its first byte. Nothing is decoded or built here.
 */
@Injectable()
export class DownloadChecks {
  constructor(
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly media: MediaService,
  ) {}

  async beforeLink(book: Book, format: DownloadFormat, whole: boolean): Promise<void> {
    if (!(await ffmpegAvailable())) throw new ServiceUnavailableException(FFMPEG_NEEDED);
    if (format === 'epub') await this.epubFiles(book, whole);
  }

  private async epubFiles(book: Book, whole: boolean): Promise<void> {
    const all = await this.chapters.ofBook(book.id);
    const free = firstChapterNo(all.map((chapter) => chapter.chapterNo));
    const included = whole ? all : all.filter((chapter) => isFreeChapter(chapter.chapterNo, free));
    if (!included.length) throw new RuleFailed('This book has no chapters yet, so it has no EPUB.');
    const numbers = new Map(included.map((chapter) => [chapter.id, chapter.chapterNo]));
    const files = new Map([[coverFile(book.coverPath, COVER_WIDTHS[COVER_WIDTHS.length - 1]), 'the cover']]);
    for (const row of await this.phrases.ofChapters(included.map((chapter) => chapter.id)))
      if (!files.has(row.audioPath))
        files.set(row.audioPath, `chapter ${numbers.get(row.chapterId)} (${row.audioPath})`);
    const missing: string[] = [];
    await eachLimited([...files.keys()], HEAD_CONCURRENCY, async (key) => {
      if (!(await this.media.exists(key))) missing.push(files.get(key)!);
    });
    if (!missing.length) return;
    throw new RuleFailed(
      `The EPUB cannot be made: ${missing.length} of the book's files ${missing.length === 1 ? 'is' : 'are'} missing from storage (${missing.sort().slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}). Upload them again first.`,
    );
  }
}
