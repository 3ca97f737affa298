import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { Book } from '../../books/book.entity';
import type { ByteRange } from '../../media/store/media-store';
import type { AudiobookEdition } from '../audiobook-build.entity';

export type AudiobookAnswer =
  | { ready: true; key: string; bytes: number; filename: string }
  | { ready: false; retryAfterSeconds: number; message: string };

/** STUB: helper C builds it (docs/formats.md "Audiobook M4B"). */
@Injectable()
export class Audiobooks {
  /** The kept M4B when it is of the book's current version; else a build is started (or joined). */
  get(book: Book, edition: AudiobookEdition): Promise<AudiobookAnswer> {
    throw new Error(`not built yet: ${book.bookCode} ${edition}`);
  }

  /** The kept file's bytes (from the derived store), or some of them. */
  read(key: string, range?: ByteRange): Promise<Readable> {
    throw new Error(`not built yet: ${key} ${range?.start}`);
  }
}
