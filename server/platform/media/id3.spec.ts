import { Readable } from 'node:stream';
import { exportedClip, id3v2Size, withoutId3 } from './id3';

/** An ID3v2 tag of `body` bytes (syncsafe size), version 3 unless told. */
function id3v2(body: number, version = 3, flags = 0): Buffer {
  const header = Buffer.from([0x49, 0x44, 0x33, version, 0, flags, 0, 0, 0, 0]);
  header[6] = (body >> 21) & 0x7f;
  header[7] = (body >> 14) & 0x7f;
  header[8] = (body >> 7) & 0x7f;
  header[9] = body & 0x7f;
  const footer =
    version === 4 && flags & 0x10
      ? Buffer.from('3DI\x04\x00\x10\x00\x00\x00\x00', 'latin1')
      : Buffer.alloc(0);
  return Buffer.concat([header, Buffer.alloc(body, 0x41), footer]);
}

const id3v1 = () => Buffer.concat([Buffer.from('TAG', 'latin1'), Buffer.alloc(125, 0x20)]);
/** Stand-in audio frames: bytes no tag starts with. */
const frames = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => 0x80 + (i % 100)));

/** Streams `bytes` in chunks of `size` through the stripper. */
async function strip(bytes: Buffer, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  const out: Buffer[] = [];
  for await (const chunk of withoutId3(Readable.from(chunks))) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

describe('withoutId3', () => {
  const audio = frames(5000);

  it.each([1, 7, 10, 128, 4096])(
    'drops leading ID3v2 tags and a trailing ID3v1 tag, in chunks of %i',
    async (size) => {
      const file = Buffer.concat([id3v2(300), id3v2(20, 4, 0x10), audio, id3v1()]);
      expect((await strip(file, size)).equals(audio)).toBe(true);
    },
  );

  it('leaves a file without tags as it is, short ones too', async () => {
    for (const bytes of [audio, frames(3), Buffer.from('ID', 'latin1'), Buffer.alloc(0), frames(128)])
      expect((await strip(bytes, 5)).equals(bytes)).toBe(true);
  });

  it('keeps bytes that only look like a tag: not at the start, a bad size, TAG not in the last 128', async () => {
    const bad = Buffer.concat([Buffer.from('ID3\x03\x00\x00\x80\x00\x00\x00', 'latin1'), audio]);
    expect(id3v2Size(bad)).toBeNull();
    const inside = Buffer.concat([audio, id3v2(10), id3v1(), frames(1)]);
    for (const bytes of [bad, inside]) expect((await strip(bytes, 64)).equals(bytes)).toBe(true);
  });

  it('passes a read error on and closes the source when the reader stops', async () => {
    const failing = new Readable({ read() {} });
    const stripped = withoutId3(failing);
    const error = new Promise((resolve) => stripped.on('error', resolve));
    failing.destroy(new Error('store gone'));
    expect(await error).toEqual(new Error('store gone'));

    const source = new Readable({ read() {} });
    const closed = new Promise((resolve) => source.on('close', resolve));
    withoutId3(source).destroy();
    await closed;
  });

  it('strips MP3 clips only', () => {
    const source = Readable.from([Buffer.alloc(1)]);
    expect(exportedClip('lines/a.m4a', source)).toBe(source);
    expect(exportedClip('lines/a.MP3', source)).not.toBe(source);
  });
});
