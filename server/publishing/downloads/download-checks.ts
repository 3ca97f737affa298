import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { Book } from '../../content/catalogue/entities/book.entity';
import { EpubExport } from '../formats/epub/epub-export';
import { ffmpegAvailable } from '../imports/ffmpeg';
import type { DownloadFormat } from './downloads.dto';
import { FFMPEG_NEEDED } from './download-errors';

/**
 * The checks a download button's link answers at once (docs/formats.md "Downloads"), so that the page
 * shows the reason instead of sending the browser to a file that would be an error: no ffmpeg (503), and
 * for the EPUB a book without chapters or with a clip or cover missing from storage (422), the very
 * checks the EPUB download makes before its first byte (EpubExport.prepare). Nothing is decoded or built.
 */
@Injectable()
export class DownloadChecks {
  constructor(private readonly epubs: EpubExport) {}

  async beforeLink(book: Book, format: DownloadFormat, whole: boolean): Promise<void> {
    if (!(await ffmpegAvailable())) throw new ServiceUnavailableException(FFMPEG_NEEDED);
    if (format === 'epub') await this.epubs.prepare(book, whole);
  }
}
