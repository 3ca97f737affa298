import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { Book } from '../../books/book.entity';

/** STUB: helper B builds it (docs/formats.md "EPUB 3 with Media Overlays"). */
@Injectable()
export class EpubExport {
  /**
   * The book's EPUB, streamed: every chapter when `whole`, else the sample (the free chapter, and a last
   * page saying so). Missing files are found before the first byte (RuleFailed, 422).
   */
  stream(book: Book, whole: boolean): Promise<{ stream: Readable; filename: string }> {
    throw new Error(`not built yet: ${book.bookCode} ${whole}`);
  }
}
