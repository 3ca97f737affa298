import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MEDIA_GRACE_MS, MediaTrash } from '../platform/media/media-trash';
import { MeasureAhead } from '../publishing/formats/measure-ahead';
import { IMPORT_STORE, MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import type { TestServer } from './harness';
import { wavHeader } from '../publishing/alignment/pcm16';

const DIR = join(__dirname, 'fixtures');

/** A fixture file as a browser would attach it to a form. */
export function fixture(name: string): Blob {
  return new Blob([readFileSync(join(DIR, name))]);
}

/** The sample rate of `wav()`'s tones: `wav(35 * WAV_RATE)` lasts exactly 35 s. */
export const WAV_RATE = 8000;

/** A mono 16-bit WAV tone of `samples` samples: a clip that is not an MP3, of an exact length. */
export function wav(samples = 800): Blob {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin(i / 8) * 8000), i * 2);
  return new Blob([Buffer.concat([wavHeader(samples, WAV_RATE), data])]);
}

export function form(fields: Record<string, string | number | [Blob, string] | undefined>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) data.set(key, value[0], value[1]);
    else data.set(key, String(value));
  }
  return data;
}

export const BOOK_FIELDS = {
  title: 'Le Petit Voyage',
  author: 'Claire Dubois',
  narrated_by: 'Marc Lefèvre',
  hours: '2',
  minutes: '35',
  description: 'A short trip to Lyon.',
  difficulty: 'Easy',
  sample_text: 'Line one.\r\nLine two.',
};

export function bookForm(overrides: Record<string, string | [Blob, string] | undefined> = {}): FormData {
  return form({
    ...BOOK_FIELDS,
    book_image: [fixture('cover.jpg'), 'cover.jpg'],
    sample_audio: [fixture('clip.mp3'), 'clip.mp3'],
    ...overrides,
  });
}

/** Every stored media key (`covers/…-640.webp`, `lines/….mp3`), from the app's store (folder or bucket). */
export async function mediaFiles(server: TestServer): Promise<string[]> {
  return (await mediaStore(server).list('')).map((object) => object.key).sort();
}

/** A stored media file's bytes, by its key or its /media URL (a signed one too). */
export async function mediaBytes(server: TestServer, keyOrUrl: string): Promise<Buffer> {
  const stream = await mediaStore(server).read(mediaKey(keyOrUrl));
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function mediaExists(server: TestServer, keyOrUrl: string): Promise<boolean> {
  return (await mediaStore(server).head(mediaKey(keyOrUrl))) !== null;
}

/** Loses a stored file behind the app's back, as a failed disk or a hand-made deletion would. */
export async function loseMedia(server: TestServer, keyOrUrl: string): Promise<void> {
  await mediaStore(server).delete([mediaKey(keyOrUrl)]);
}

/** The ids of the imports that have files in the import store. */
export async function stagedImports(server: TestServer): Promise<string[]> {
  const objects = await server.app.get<symbol, MediaStore>(IMPORT_STORE).list('');
  return [...new Set(objects.map((object) => object.key.split('/')[0]))].sort();
}

/**
 * Runs the trash's purge as if the grace period were over: replaced and deleted media is kept an hour
 * (MEDIA_GRACE_MS), then deleted for good.
 */
export function purgeAfterGrace(server: TestServer): Promise<number> {
  return server.app.get(MediaTrash).purge(new Date(Date.now() + MEDIA_GRACE_MS + 60_000));
}

const mediaStore = (server: TestServer) => server.app.get<symbol, MediaStore>(MEDIA_STORE);
const mediaKey = (keyOrUrl: string) => keyOrUrl.replace(/^\/media\//, '').replace(/\?.*$/, '');

/**
 * The files left in the server's tmp/ once its background work is done. Clips saved by a test are measured
 * a few seconds later (docs/formats.md "Measured ahead"), and on S3 that holds a local copy in tmp/ while
 * ffmpeg reads it: a look taken meanwhile would see work in progress, not a leak.
 */
export async function tempFiles(server: TestServer): Promise<string[]> {
  await server.app.get(MeasureAhead).idle();
  return readdirSync(join(server.storageDir, 'tmp'));
}
