import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';

/**
 * MP3 clips leave in exports (EPUB, Anki) without their ID3 tags (docs/formats.md "Clips inside an
 * EPUB"): an uploader's tag may be broken (a UTF-16 comment without its byte order mark, which ffprobe and
 * Readium report) and names nothing a reader needs. The tags are cut out of the bytes as they stream, by
 * their headers; the audio frames are copied untouched (no re-encoding, the decoded length is the same).
 */

const ID3V2_HEADER = 10;
const ID3V1_SIZE = 128;
const NOTHING = Buffer.alloc(0);

/**
 * The whole size of the ID3v2 tag `head` starts with (header, frames, footer), or null when it does not
 * start with one: "ID3", a version 2 to 4, then a syncsafe size (7 bits a byte).
 */
export function id3v2Size(head: Buffer): number | null {
  if (head.length < ID3V2_HEADER || head.toString('latin1', 0, 3) !== 'ID3') return null;
  const [version, revision, flags] = [head[3], head[4], head[5]];
  if (version < 2 || version > 4 || revision === 0xff) return null;
  const size = head.subarray(6, 10);
  if (size.some((byte) => byte >= 0x80)) return null;
  const body = (size[0] << 21) | (size[1] << 14) | (size[2] << 7) | size[3];
  // A v2.4 footer (flag bit 4) repeats the header at the end of the tag.
  return ID3V2_HEADER + body + (version === 4 && flags & 0x10 ? ID3V2_HEADER : 0);
}

/** Whether `head` could still become an ID3v2 header with more bytes. */
const mayBeId3v2 = (head: Buffer) =>
  head.length < ID3V2_HEADER &&
  Buffer.from('ID3', 'latin1').subarray(0, head.length).equals(head.subarray(0, 3));

/** Drops leading ID3v2 tags (one after another) and a trailing ID3v1 tag (`TAG`, the last 128 bytes). */
class Id3Stripper extends Transform {
  private leading = true;
  private head = NOTHING;
  private skip = 0;
  /** The last bytes seen, held back until the end tells whether they are an ID3v1 tag. */
  private tail = NOTHING;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data = chunk;
    while (this.leading) {
      if (this.skip > 0) {
        const dropped = Math.min(this.skip, data.length);
        this.skip -= dropped;
        data = data.subarray(dropped);
        if (this.skip > 0 || data.length === 0) return done();
      }
      this.head = Buffer.concat([this.head, data]);
      data = NOTHING;
      if (mayBeId3v2(this.head)) return done();
      const size = id3v2Size(this.head);
      data = this.head;
      this.head = NOTHING;
      if (size === null) this.leading = false;
      else this.skip = size;
    }
    this.keepTail(data);
    done();
  }

  override _flush(done: TransformCallback): void {
    // A file shorter than a header that began like one: it was no tag.
    if (this.leading && this.skip === 0) this.keepTail(this.head);
    const tag = this.tail.length === ID3V1_SIZE && this.tail.toString('latin1', 0, 3) === 'TAG';
    if (!tag && this.tail.length) this.push(this.tail);
    done();
  }

  private keepTail(data: Buffer): void {
    if (data.length === 0) return;
    const all = this.tail.length ? Buffer.concat([this.tail, data]) : data;
    if (all.length > ID3V1_SIZE) this.push(all.subarray(0, all.length - ID3V1_SIZE));
    this.tail = Buffer.from(all.subarray(Math.max(0, all.length - ID3V1_SIZE)));
  }
}

/**
 * `source` without its ID3 tags. Errors pass on to the stream answered, and destroying it (a client that
 * hung up) closes `source`.
 */
export function withoutId3(source: Readable): Readable {
  const stripper = new Id3Stripper();
  // pipeline destroys the other streams on an error or an early close; the error reaches `stripper`.
  pipeline(source, stripper, () => undefined);
  return stripper;
}

/** A stored clip's bytes as they leave in an export: an MP3 without its ID3 tags, anything else as is. */
export function exportedClip(key: string, source: Readable): Readable {
  return key.toLowerCase().endsWith('.mp3') ? withoutId3(source) : source;
}
