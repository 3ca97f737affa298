import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UpdateBookDto } from '../books/books.dto';
import { ChapterDto } from '../chapters/chapters.dto';
import { ValidationFailed, type FieldErrors } from '../../platform/common/api-error';
import { BOOK_UPLOADS } from '../../platform/common/body-limits';
import { shortened } from '../../platform/common/cut-text';
import { MediaRejectedError } from '../../platform/media/media.service';
import { isImage, sniffFile } from '../../platform/media/sniff';
import {
  BOOK_FIELDS,
  BOOK_FORMAT,
  BOOK_FORMAT_VERSION,
  BOOK_JSON,
  CHAPTER_JSON,
  COVER_FILE,
  isBookCode,
  JSON_BYTES,
  PHRASES_FILE,
  PHRASES_TSV,
  SAMPLE_FILE,
  type BookField,
} from './book-archive';
import { matchClips, type StagedClip } from './clip-matching';
import { probeClips, type Probe } from './clip-probes';
import { CHAPTER_IMPORT_UPLOADS, MAX_CLIPS } from './imports.dto';
import type { BookChapter, BookManifest } from './manifests';
import { decodeText, parseImportText, TextRejected, TooManyRows } from './text-formats';
import type { ZipEntry } from './zip-entries';

/** A zip entry inside the book, by its path below book.json's folder. */
interface Item extends ZipEntry {
  rel: string;
  /** Its file in the stage, by the number name the extraction gave it. */
  staged: string;
}

const base = (name: string) => name.slice(name.lastIndexOf('/') + 1);
const folderOf = (name: string) => (name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : '');
const quoted = (name: string) => `"${shortened(name, 121)}"`;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads an extracted book zip (book-archive.ts) into a manifest: book.json checked by the admin book
 * form's rules, the cover and sample by content, each chapter's text matched to its folder's clips and
 * every clip checked as audio. Every problem is named where it belongs; only a zip that is no book at all
 * (no book.json) is refused whole.
 */
export async function readBookArchive(entries: ZipEntry[], stageDir: string, probe: Probe) {
  const root = bookRoot(entries);
  const manifest = emptyBookManifest();
  const items: Item[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(root))
      items.push({ ...entry, rel: entry.name.slice(root.length), staged: base(entry.file) });
    else manifest.errors.push(`${quoted(entry.name)} is outside the book's folder (the one with book.json).`);
  }
  const path = (item: { staged: string }) => join(stageDir, item.staged);
  const top = items.filter((item) => !item.rel.includes('/'));
  await readBookJson(
    top.find((item) => item.rel === BOOK_JSON)!,
    path,
    manifest,
  );
  await readCover(top, path, manifest);
  await readSample(top, path, probe, manifest);
  for (const [folder, files] of chapterFiles(items, manifest))
    manifest.chapters.push(await readChapter(folder, items, files, path));
  markSharedNumbers(manifest.chapters);
  manifest.chapters.sort(
    (a, b) => (a.chapter_no ?? 0) - (b.chapter_no ?? 0) || (a.folder < b.folder ? -1 : 1),
  );
  await probeClips(
    manifest.chapters.flatMap((chapter) => chapter.rows),
    (file) => probe(join(stageDir, file)),
    new Map(items.map((item) => [item.staged, item.size])),
  );
  return manifest;
}

async function readCover(top: Item[], path: (item: Item) => string, manifest: BookManifest) {
  const cover = only(top, COVER_FILE, 'book_image', 'cover', 'cover.jpg, cover.png or cover.webp', manifest);
  if (!cover) return;
  if (cover.size > BOOK_UPLOADS.book_image)
    manifest.fieldErrors.book_image = ['The cover is larger than 5 MB, the most for a book image.'];
  else if (!isImage(await sniffFile(path(cover))))
    manifest.fieldErrors.book_image = ['The cover must be a JPEG, PNG or WebP image.'];
  else manifest.cover = { name: cover.rel, file: cover.staged };
}

async function readSample(top: Item[], path: (item: Item) => string, probe: Probe, manifest: BookManifest) {
  const names = 'sample.mp3 (or .m4a, .ogg, .wav)';
  const sample = only(top, SAMPLE_FILE, 'sample_audio', 'sample', names, manifest);
  if (!sample) return;
  if (sample.size > BOOK_UPLOADS.sample_audio) {
    manifest.fieldErrors.sample_audio = ['The sample is larger than 100 MB, the most for a sample audio.'];
    return;
  }
  try {
    const { durationMs } = await probe(path(sample));
    manifest.sample = { name: sample.rel, file: sample.staged, duration_ms: durationMs };
  } catch (error) {
    if (!(error instanceof MediaRejectedError)) throw error;
    manifest.fieldErrors.sample_audio = [error.message];
  }
}

/**
 * Each chapter folder (one with a chapter.json) and the files in it, by folder name. A file belongs to the
 * deepest chapter folder it is in; one in none, other than the book's own files, is a problem.
 */
function chapterFiles(items: Item[], manifest: BookManifest): Map<string, Item[]> {
  const bookFile = (rel: string) =>
    rel === BOOK_JSON || (!rel.includes('/') && (COVER_FILE.test(rel) || SAMPLE_FILE.test(rel)));
  const folders = items.filter((item) => base(item.rel) === CHAPTER_JSON).map((item) => folderOf(item.rel));
  if (folders.includes('')) manifest.errors.push(`${CHAPTER_JSON} must be in a chapter's own folder.`);
  const files = new Map<string, Item[]>(
    folders
      .filter((folder) => folder !== '')
      .sort()
      .map((folder) => [folder, []]),
  );
  for (const item of items) {
    if (bookFile(item.rel) || base(item.rel) === CHAPTER_JSON) continue;
    const folder = [...files.keys()]
      .filter((f) => item.rel.startsWith(`${f}/`))
      .sort((a, b) => b.length - a.length)[0];
    if (folder !== undefined) files.get(folder)!.push(item);
    else
      manifest.errors.push(
        `${quoted(item.rel)} belongs to no chapter: a chapter's files go in a folder with its ${CHAPTER_JSON}.`,
      );
  }
  return files;
}

/** A manifest with nothing read yet: every field null, no file, no chapter, no problem. */
export function emptyBookManifest(): BookManifest {
  return {
    code: null,
    book: Object.fromEntries(BOOK_FIELDS.map((field) => [field, null])) as Record<BookField, unknown>,
    fieldErrors: {},
    cover: null,
    sample: null,
    chapters: [],
    errors: [],
  };
}

/** Chapter numbers are unique in a book: each chapter sharing one says with which. */
export function markSharedNumbers(chapters: BookChapter[]) {
  for (const chapter of chapters) {
    const same = chapters.filter(
      (other) => other !== chapter && other.chapter_no !== null && other.chapter_no === chapter.chapter_no,
    );
    if (same.length)
      chapter.errors.push(
        `Chapter number ${chapter.chapter_no} is also the number of ${same.map((other) => other.folder).join(', ')}.`,
      );
  }
}

/** The folder of the shallowest book.json: a zip of a folder holding the book is read as well. */
function bookRoot(entries: ZipEntry[]): string {
  const found = entries
    .filter((entry) => base(entry.name) === BOOK_JSON)
    .map((entry) => folderOf(entry.name));
  if (!found.length)
    throw ValidationFailed.field('zip', `The zip holds no ${BOOK_JSON}: it is not the export of a book.`);
  const depth = (folder: string) => (folder === '' ? 0 : folder.split('/').length);
  const shallowest = Math.min(...found.map(depth));
  const roots = found.filter((folder) => depth(folder) === shallowest);
  if (roots.length > 1)
    throw ValidationFailed.field('zip', `The zip holds more than one book: ${roots.join(', ')}.`);
  return roots[0] === '' ? '' : `${roots[0]}/`;
}

/** The one top-level file a pattern names; none or several is a problem of its field. */
function only(
  top: Item[],
  pattern: RegExp,
  field: string,
  what: string,
  names: string,
  manifest: BookManifest,
) {
  const found = top.filter((item) => pattern.test(item.rel));
  if (found.length === 1) return found[0];
  manifest.fieldErrors[field] = [
    found.length
      ? `The zip holds more than one ${what}: ${found.map((item) => item.rel).join(', ')}.`
      : `The zip holds no ${what}: add ${names} next to ${BOOK_JSON}.`,
  ];
  return null;
}

/** A small JSON file of the zip, or why it cannot be read. */
async function readJson(item: Item, path: (item: Item) => string): Promise<Record<string, unknown> | string> {
  if (item.size > JSON_BYTES) return `${item.rel} is larger than 1 MB.`;
  try {
    const value: unknown = JSON.parse(decodeText(await readFile(path(item))).replace(/^\uFEFF/, ''));
    return isObject(value) ? value : `${item.rel} must hold one JSON object.`;
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof TextRejected)
      return `${item.rel} is not valid JSON.`;
    throw error;
  }
}

/** The admin forms' own rules, applied to a JSON object: the first problem of each field. */
async function check<T extends object>(type: new () => T, plain: Record<string, unknown>) {
  const dto = plainToInstance(type, plain);
  const errors: FieldErrors = {};
  // The forms' rules refuse a control character too (platform/common/stored-text.ts), and NUL or half a
  // surrogate pair, which JSON can hold as well as a body can.
  for (const error of await validate(dto, { stopAtFirstError: true, whitelist: true }))
    errors[error.property] = Object.values(error.constraints ?? {});
  return { dto, errors };
}

async function readBookJson(item: Item, path: (item: Item) => string, manifest: BookManifest) {
  const json = await readJson(item, path);
  if (typeof json === 'string') manifest.errors.push(json);
  else await takeBookJson(json, manifest);
}

/**
 * book.json's content, into the manifest: its fields checked by the admin book form's rules (and cleaned
 * up by them: trimmed text, whole numbers), its book_code kept when it is one. The demo seed reads its
 * books' fields through here too (seed/demo-book.ts).
 */
export async function takeBookJson(json: Record<string, unknown>, manifest: BookManifest): Promise<void> {
  if (json.format !== undefined && json.format !== BOOK_FORMAT)
    manifest.errors.push(`${BOOK_JSON} is not a Lingonovel book: its format is not "${BOOK_FORMAT}".`);
  if (typeof json.version === 'number' && json.version > BOOK_FORMAT_VERSION)
    manifest.errors.push(
      `${BOOK_JSON} was written by a newer Lingonovel (format version ${json.version}): update this server first.`,
    );
  const picked = Object.fromEntries(
    BOOK_FIELDS.filter((f) => json[f] !== undefined).map((f) => [f, json[f]]),
  );
  const { dto, errors } = await check(UpdateBookDto, picked);
  Object.assign(manifest.fieldErrors, errors);
  const values = dto as unknown as Record<BookField, unknown>;
  manifest.book = Object.fromEntries(BOOK_FIELDS.map((f) => [f, values[f] ?? null])) as Record<
    BookField,
    unknown
  >;
  manifest.code = isBookCode(json.book_code) ? json.book_code : null;
}

/**
 * chapter.json's content (`title`, `number`), into the chapter: checked by the admin chapter form's rules.
 * The demo seed reads its chapters through here too.
 */
export async function takeChapterJson(json: Record<string, unknown>, chapter: BookChapter): Promise<void> {
  const { dto, errors } = await check(ChapterDto, { title: json.title, chapter_no: json.number, book_id: 1 });
  for (const messages of Object.values(errors))
    chapter.errors.push(...messages.map((message) => `${CHAPTER_JSON}: ${message}`));
  if (!errors.title) chapter.title = dto.title;
  if (!errors.chapter_no) chapter.chapter_no = dto.chapter_no;
}

async function readChapter(folder: string, items: Item[], files: Item[], path: (item: Item) => string) {
  const chapter: BookChapter = { folder, chapter_no: null, title: '', rows: [], errors: [] };
  const json = await readJson(
    items.find((item) => item.rel === `${folder}/${CHAPTER_JSON}`)!,
    path,
  );
  if (typeof json === 'string') chapter.errors.push(json);
  else await takeChapterJson(json, chapter);
  const own = (item: Item) => folderOf(item.rel) === folder;
  const texts = files.filter((item) => own(item) && PHRASES_FILE.test(base(item.rel)));
  const clips: StagedClip[] = files
    .filter((item) => !texts.includes(item))
    .map((item) => ({ name: base(item.rel), file: item.staged }));
  if (texts.length !== 1) {
    chapter.errors.push(
      texts.length
        ? `The chapter has more than one text: ${texts.map((item) => base(item.rel)).join(', ')}.`
        : `The chapter has no ${PHRASES_TSV}.`,
    );
    return chapter;
  }
  const seen = new Set<string>();
  for (const clip of clips) {
    if (seen.has(clip.name.toLowerCase()))
      chapter.errors.push(`Two clips are named "${clip.name}": give each clip its own name.`);
    seen.add(clip.name.toLowerCase());
  }
  let text;
  try {
    if (texts[0].size > CHAPTER_IMPORT_UPLOADS.text)
      throw new TextRejected('The text file is larger than 5 MB.');
    text = parseImportText(await readFile(path(texts[0])), MAX_CLIPS);
  } catch (error) {
    if (error instanceof TooManyRows)
      chapter.errors.push(`The chapter has ${error.count} phrases; the most is ${MAX_CLIPS}.`);
    else if (error instanceof TextRejected) chapter.errors.push(`${base(texts[0].rel)}: ${error.message}`);
    else throw error;
    return chapter;
  }
  const matched = matchClips(text, clips);
  chapter.rows = matched.rows.map((row) => ({ ...row, duration_ms: null }));
  chapter.errors.push(...matched.errors);
  return chapter;
}
