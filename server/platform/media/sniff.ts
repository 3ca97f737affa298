import { open } from 'node:fs/promises';

export type ImageType = 'jpeg' | 'png' | 'webp';
export type AudioType = 'mp3' | 'm4a' | 'aac' | 'ogg' | 'wav';
export type MediaType = ImageType | AudioType;

export const AUDIO_EXTENSIONS: Record<AudioType, string> = {
  mp3: 'mp3',
  m4a: 'm4a',
  aac: 'aac',
  ogg: 'ogg',
  wav: 'wav',
};

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);

/** An MPEG audio frame header: 11 sync bits, then version and layer bits. */
function mpegFrame(bytes: Buffer, at: number): 'mp3' | 'aac' | null {
  if (bytes.length < at + 2 || bytes[at] !== 0xff || (bytes[at + 1] & 0xe0) !== 0xe0) return null;
  const layer = (bytes[at + 1] >> 1) & 0x03;
  if (layer === 0) return (bytes[at + 1] & 0xf6) === 0xf0 ? 'aac' : null;
  return 'mp3';
}

/** Where the audio starts after an ID3v2 tag, whose size is "syncsafe": 7 bits per byte. */
function id3End(bytes: Buffer): number {
  const size =
    ((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f);
  const footer = bytes[5] & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/** Recognises a file by its first bytes; names and declared types are never trusted. */
export function sniffBytes(bytes: Buffer): MediaType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF') {
    const kind = ascii(bytes, 8, 12);
    if (kind === 'WEBP') return 'webp';
    if (kind === 'WAVE') return 'wav';
    return null;
  }
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    return ['M4A ', 'M4B ', 'mp42', 'isom', 'mp41', 'dash', 'iso2'].includes(brand) ? 'm4a' : null;
  }
  if (bytes.length >= 10 && ascii(bytes, 0, 3) === 'ID3') {
    return mpegFrame(bytes, id3End(bytes));
  }
  return mpegFrame(bytes, 0);
}

const HEAD_BYTES = 4096;

export async function sniffFile(path: string): Promise<MediaType | null> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytesRead >= 10 && ascii(bytes, 0, 3) === 'ID3') {
      // Look at the first frame after a large tag (cover art in the tag is common).
      const at = id3End(bytes);
      if (at + 2 > bytesRead) {
        const frame = Buffer.alloc(2);
        const read = await file.read(frame, 0, 2, at);
        return read.bytesRead === 2 ? mpegFrame(frame, 0) : null;
      }
    }
    return sniffBytes(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

export const isImage = (type: MediaType | null): type is ImageType =>
  type === 'jpeg' || type === 'png' || type === 'webp';
export const isAudio = (type: MediaType | null): type is AudioType =>
  type === 'mp3' || type === 'm4a' || type === 'aac' || type === 'ogg' || type === 'wav';
