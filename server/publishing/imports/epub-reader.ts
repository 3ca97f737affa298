import { ServiceUnavailableException } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { open, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { UpdateBookDto } from '../books/books.dto';
import { isKnownLanguage } from '../../content/catalogue/languages';
import { ValidationFailed } from '../../platform/common/api-error';
import { BOOK_UPLOADS } from '../../platform/common/body-limits';
import { shortened } from '../../platform/common/cut-text';
import { canonicalTag } from '../../platform/common/language-tags';
import { isImage, sniffFile, type AudioType } from '../../platform/media/sniff';
import { BOOK_FIELDS, type BookField } from './book-archive';
import { OverlayReader, type EpubFiles, type OverlayChapter } from './epub-chapters';
import { cutClips, leaveUncut, leaveUnmeasured, planClips, spansMs } from './epub-cut';
import { navTitles, packagePath, readPackage, type EpubPackage } from './epub-package';
import { XmlRejected } from './epub-xml';
import { FfmpegError } from './ffmpeg';
import { bookProblems, type BookManifest } from './manifests';
import { decodeText, TextRejected } from './text-formats';
import type { ZipEntry } from './zip-entries';

type Probe = (file: string) => Promise<{ type: AudioType; durationMs: number | null }>;

const MIMETYPE = 'application/epub+zip';
/** The most `<par>`s a whole EPUB may have (a chapter has at most MAX_CLIPS): counted before any cut. */
export const MAX_EPUB_PARS = 20_000;
/** An XML document of the EPUB larger than this is not read; a content document (XHTML) has a lower limit. */
const XML_BYTES = 10 * 1024 * 1024;
const CONTENT_BYTES = 4 * 1024 * 1024;
/**
 * All the XML one EPUB may have read, however often: parsing costs tens of bytes of heap per byte, and a
 * small zip may name the same large document from many places.
 */
const XML_BUDGET_BYTES = 50 * 1024 * 1024;
/** Phrases whose text makes a book's sample text, and the defaults docs/import.md names. */
const SAMPLE_PHRASES = 3;
export const EPUB_DEFAULTS = { difficulty: 'Medium', unknown: 'Unknown' } as const;

export const EPUB_FFMPEG_MESSAGE =
  'Importing a read-along EPUB needs ffmpeg to cut its clips. Install it with: sudo apt-get install -y ffmpeg';

/** How long a `mimetype` entry may be: the type and some trailing whitespace a careless zipper added. */
const MIMETYPE_MAX = 64;

/** An EPUB by content: its first entry is `mimetype`, holding `application/epub+zip` (trailing space ignored). */
export async function isEpub(entries: ZipEntry[]): Promise<boolean> {
  const first = entries[0];
  if (!first || first.name !== 'mimetype' || first.size < MIMETYPE.length || first.size > MIMETYPE_MAX)
    return false;
  const handle = await open(first.file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(MIMETYPE_MAX), 0, MIMETYPE_MAX, 0);
    return buffer.subarray(0, bytesRead).toString('latin1').trimEnd() === MIMETYPE;
  } finally {
    await handle.close();
  }
}

/**
 * Reads an extracted read-along EPUB (EPUB 3 with Media Overlays) into the book import's manifest
 * (docs/import.md, "Read-along EPUBs"): chapters follow the spine, one phrase per SMIL `<par>`. Every
 * problem is listed where the preview shows it; clips are cut only for a book without any. An EPUB that
 * is no read-along book at all, or declares XML entities, is refused whole (422).
 */
export async function readEpub(entries: ZipEntry[], stageDir: string, probe: Probe): Promise<BookManifest> {
  // By NFC names, as hrefs are resolved (resolveHref): a Mac's zip may spell them decomposed.
  const byPath = new Map<string, { staged: string; size: number; file: string }>();
  for (const entry of entries) {
    const name = entry.name.normalize('NFC');
    if (!byPath.has(name))
      byPath.set(name, { staged: basename(entry.file), size: entry.size, file: entry.file });
  }
  let xmlRead = 0;
  const files: EpubFiles = {
    has: (path) => byPath.has(path),
    text: async (path, kind) => {
      const item = byPath.get(path);
      if (!item) return { problem: 'missing from the EPUB.' };
      const limit = kind === 'content' ? CONTENT_BYTES : XML_BYTES;
      if (item.size > limit) return { problem: `larger than ${limit / 1024 / 1024} MB.` };
      if ((xmlRead += item.size) > XML_BUDGET_BYTES)
        throw refused(
          `The EPUB's documents add up to more than ${XML_BUDGET_BYTES / 1024 / 1024} MB of XML to read: it is refused.`,
        );
      try {
        return decodeText(await readFile(item.file));
      } catch (error) {
        if (error instanceof TextRejected) return { problem: 'not UTF-8 or UTF-16 text.' };
        throw error;
      }
    },
  };
  const manifest: BookManifest = {
    code: null,
    book: Object.fromEntries(BOOK_FIELDS.map((field) => [field, null])) as Record<BookField, unknown>,
    fieldErrors: {},
    cover: null,
    sample: null,
    chapters: [],
    errors: [],
  };
  let pkg: EpubPackage;
  const chapters: OverlayChapter[] = [];
  try {
    pkg = await readStructure(files);
    manifest.errors.push(...pkg.errors);
    const titles = pkg.navId ? await navigation(pkg, files) : new Map<string, string>();
    const reader = new OverlayReader(pkg, files, titles);
    const overlaid = reader.overlaid();
    if (!overlaid.length)
      throw refused(
        'The EPUB has no media overlays (no chapter of its spine has a media-overlay): it is not a read-along book, and a book here needs a clip for every phrase.',
      );
    let pars = 0;
    for (const [i, item] of overlaid.entries()) {
      chapters.push(await reader.chapter(i + 1, item.id));
      pars += chapters[i].chapter.rows.length;
      if (pars > MAX_EPUB_PARS)
        throw refused(`The EPUB has more than ${MAX_EPUB_PARS} phrases (<par>), the most a book can import.`);
    }
  } catch (error) {
    if (error instanceof XmlRejected) throw refused(error.message);
    throw error;
  }
  manifest.chapters = chapters.map(({ chapter }) => chapter);
  await readCover(pkg, byPath, manifest);
  try {
    // A book with a problem already cannot be committed: its audio is neither decoded nor cut.
    const staged = (path: string) => byPath.get(path)!;
    await readFields(pkg, manifest, spansMs(chapters));
    if (bookProblems(manifest).length) await leaveUnmeasured(chapters, staged, stageDir);
    else {
      const planned = await planClips(chapters, staged, stageDir);
      await readFields(
        pkg,
        manifest,
        planned.reduce((sum, plan) => sum + (plan.end - plan.begin), 0),
      );
      if (bookProblems(manifest).length) leaveUncut(planned);
      else await cutClips(planned, stageDir, probe);
    }
  } catch (error) {
    if (error instanceof FfmpegError && error.kind === 'missing')
      throw new ServiceUnavailableException(EPUB_FFMPEG_MESSAGE);
    throw error;
  }
  const first = manifest.chapters.flatMap((chapter) => chapter.rows).find((row) => row.file && !row.error);
  if (first)
    manifest.sample = {
      name: first.clip ?? 'first phrase',
      file: first.file!,
      duration_ms: first.duration_ms,
    };
  else manifest.fieldErrors.sample_audio = ['The EPUB has no phrase whose clip could be its sample.'];
  return manifest;
}

const refused = (message: string) => ValidationFailed.field('zip', message);

/** container.xml, then the package document it names; either missing refuses the EPUB whole. */
async function readStructure(files: EpubFiles): Promise<EpubPackage> {
  const CONTAINER = 'META-INF/container.xml';
  if (!files.has(CONTAINER)) throw refused(`The EPUB has no ${CONTAINER}.`);
  const container = await files.text(CONTAINER);
  if (typeof container !== 'string') throw refused(`${CONTAINER} is ${container.problem}`);
  const path = packagePath(container);
  if (!path || !files.has(path))
    throw refused(
      `The EPUB's package document ${path ? `${path} is missing` : 'is not named in its container.xml'}.`,
    );
  const opf = await files.text(path);
  if (typeof opf !== 'string') throw refused(`${path} is ${opf.problem}`);
  return readPackage(opf, path);
}

async function navigation(pkg: EpubPackage, files: EpubFiles): Promise<Map<string, string>> {
  const nav = pkg.items.get(pkg.navId!)!;
  const text = nav.path && files.has(nav.path) ? await files.text(nav.path) : null;
  return typeof text === 'string' ? navTitles(text, nav.path!) : new Map();
}

async function readCover(
  pkg: EpubPackage,
  byPath: Map<string, { staged: string; size: number; file: string }>,
  manifest: BookManifest,
) {
  const item = pkg.coverId ? pkg.items.get(pkg.coverId) : undefined;
  const file = item?.path ? byPath.get(item.path) : undefined;
  if (!item || !file)
    manifest.fieldErrors.book_image = [
      item
        ? `The cover ${item.path ?? item.href} is missing from the EPUB.`
        : 'The EPUB names no cover image (an item with properties="cover-image"): a book needs one.',
    ];
  else if (file.size > BOOK_UPLOADS.book_image)
    manifest.fieldErrors.book_image = ['The cover is larger than 5 MB, the most for a book image.'];
  else if (!isImage(await sniffFile(file.file)))
    manifest.fieldErrors.book_image = ['The cover must be a JPEG, PNG or WebP image.'];
  else manifest.cover = { name: item.path!, file: file.staged };
}

/**
 * The book's fields from the package's metadata, with the defaults docs/import.md names for what an EPUB
 * does not say, checked by the admin book form's own rules.
 */
async function readFields(pkg: EpubPackage, manifest: BookManifest, totalMs: number) {
  const { metadata } = pkg;
  const title = metadata.title ?? '';
  const author = shortened(metadata.creators.join(', '), 200) || EPUB_DEFAULTS.unknown;
  const tag = metadata.language && canonicalTag(metadata.language);
  const minutes = Math.max(1, Math.round(totalMs / 60_000));
  // The first phrases that can be imported: a row with a problem is named on its row, not again here.
  const rows = manifest.chapters.flatMap((chapter) => chapter.rows).filter((row) => row.phrase && !row.error);
  const plain = {
    title,
    author,
    narrated_by: shortened(metadata.narrators.join(', '), 200) || EPUB_DEFAULTS.unknown,
    hours: Math.floor(minutes / 60),
    minutes: minutes % 60,
    // The description may carry markup; it is plain text here.
    description: shortened(
      (metadata.description ?? '')
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim() || `${title || 'A book'}, by ${author}: a read-along book imported from an EPUB.`,
      5000,
    ),
    difficulty: EPUB_DEFAULTS.difficulty,
    sample_text: shortened(
      rows
        .slice(0, SAMPLE_PHRASES)
        .map((row) => row.phrase)
        .join(' '),
      10_000,
    ),
    // A language this server cannot name is left empty, to be set on Edit Book, rather than refused.
    language: tag && isKnownLanguage(tag) ? tag : null,
    cefr: null,
  };
  const dto = plainToInstance(UpdateBookDto, plain);
  for (const error of await validate(dto, { stopAtFirstError: true, whitelist: true }))
    manifest.fieldErrors[error.property] = Object.values(error.constraints ?? {});
  if (!title) manifest.fieldErrors.title = ['The EPUB has no title (dc:title).'];
  const values = dto as unknown as Record<BookField, unknown>;
  manifest.book = Object.fromEntries(BOOK_FIELDS.map((f) => [f, values[f] ?? null])) as Record<
    BookField,
    unknown
  >;
}
