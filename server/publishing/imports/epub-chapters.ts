import { MAX_CLIPS } from './imports.dto';
import { formatClock, parseClock } from './epub-clock';
import { ContentDocument } from './epub-content';
import type { EpubPackage } from './epub-package';
import {
  attr,
  childNamed,
  findAll,
  parseXml,
  resolveHref,
  short,
  XmlCountExceeded,
  type XmlElement,
} from './epub-xml';
import type { BookChapter, ChapterRow } from './manifests';
import { rowTextProblem } from './text-formats';
import { shortened } from '../../platform/common/cut-text';
import { storedTextProblem } from '../../platform/common/stored-text';

/** The most a SMIL `clipEnd − clipBegin` may span: a phrase's clip, not a chapter's recording. */
export const MAX_CLIP_MS = 60_000;
/** The least: a shorter range holds no audio frame, and a clip without audio cannot be played or exported. */
export const MIN_CLIP_MS = 20;
/** Content documents kept parsed at once: a chapter's pars point at one or two; each may be megabytes. */
const DOCUMENTS_KEPT = 3;

/** Where a phrase's clip is to be cut from: a file of the EPUB (by its path) and a range in ms. */
export interface ClipSource {
  audio: string;
  begin: number;
  /** null: to the end of the file (no clipEnd). */
  end: number | null;
}

/** The files of the extracted EPUB, by their path from the zip's root. */
export interface EpubFiles {
  has(path: string): boolean;
  /**
   * A text file's content, or a problem (missing, too large, not UTF-8). `kind` picks the size limit:
   * content documents (XHTML) have a lower one than SMIL and the package.
   */
  text(path: string, kind?: 'content'): Promise<string | { problem: string }>;
}

/** A chapter with where each of its rows' clip comes from (rows with a problem have none). */
export interface OverlayChapter {
  chapter: BookChapter;
  sources: Map<ChapterRow, ClipSource>;
}

/** Reads the chapters of the spine that have a media overlay, one row per `<par>`, in document order. */
export class OverlayReader {
  private readonly documents = new Map<string, ContentDocument | string>();
  /** The paths the package's manifest lists: a file it does not list is not part of the book. */
  private readonly listed: Set<string>;

  constructor(
    private readonly pkg: EpubPackage,
    private readonly files: EpubFiles,
    private readonly titles: Map<string, string>,
  ) {
    this.listed = new Set([...pkg.items.values()].flatMap((item) => (item.path ? [item.path] : [])));
  }

  /** The spine items with a media overlay; the others (cover page, contents) are not chapters. */
  overlaid() {
    return this.pkg.spine
      .map((idref) => this.pkg.items.get(idref))
      .filter((item) => item?.overlay)
      .map((item) => item!);
  }

  /**
   * The number of `<par>`s in a SMIL file (any case, any prefix), counted before parsing it: a huge one is
   * refused unparsed. The parse counts again by local name, which no spelling escapes.
   */
  static countPars(smil: string): number {
    return smil.match(/<(?:[\w.-]+:)?par[\s/>]/gi)?.length ?? 0;
  }

  async chapter(n: number, itemId: string): Promise<OverlayChapter> {
    const item = this.pkg.items.get(itemId)!;
    // A chapter's pars point at its own pages: the pages of earlier chapters need not stay in memory.
    this.documents.clear();
    const folder = item.path ?? item.href;
    const chapter: BookChapter = { folder, chapter_no: n, title: '', rows: [], errors: [] };
    const sources = new Map<ChapterRow, ClipSource>();
    const done = { chapter, sources };
    const content = item.path && this.files.has(item.path) ? await this.document(item.path) : null;
    if (!item.path || !this.files.has(item.path))
      chapter.errors.push(
        item.outside ?? `Its document ${short(item.path ?? item.href)} is missing from the EPUB.`,
      );
    chapter.title = shortened(
      (item.path && this.titles.get(item.path)) ||
        (typeof content === 'object' && content?.title()) ||
        `Chapter ${n}`,
      200,
    );
    const titleProblem = storedTextProblem(chapter.title);
    if (titleProblem) chapter.errors.push(`Its title ${titleProblem}`);
    const overlay = this.pkg.items.get(item.overlay!);
    const smilPath = overlay?.path;
    if (!overlay || !smilPath || !this.files.has(smilPath)) {
      chapter.errors.push(
        !overlay
          ? `Its media overlay "${short(item.overlay!)}" is not in the package's manifest.`
          : (overlay.outside ?? `Its media overlay ${short(overlay.href)} is missing from the EPUB.`),
      );
      return done;
    }
    const smil = await this.files.text(smilPath);
    if (typeof smil !== 'string') {
      chapter.errors.push(`${smilPath}: ${smil.problem}`);
      return done;
    }
    const count = OverlayReader.countPars(smil);
    if (count > MAX_CLIPS) {
      chapter.errors.push(`Its media overlay has ${count} phrases; the most for a chapter is ${MAX_CLIPS}.`);
      return done;
    }
    let pars: XmlElement[] | null = null;
    try {
      pars = findAll(parseXml(smil, smilPath, { count: { name: 'par', max: MAX_CLIPS } }), 'par');
    } catch (error) {
      if (!(error instanceof XmlCountExceeded)) throw error;
    }
    if (!pars || pars.length > MAX_CLIPS) {
      chapter.errors.push(
        `Its media overlay has more than ${MAX_CLIPS} phrases; the most for a chapter is ${MAX_CLIPS}.`,
      );
      return done;
    }
    for (const [i, par] of pars.entries()) {
      const row: ChapterRow = {
        n: i + 1,
        phrase: '',
        dictionary: '',
        translations: {},
        clip: null,
        file: null,
        error: null,
        duration_ms: null,
      };
      chapter.rows.push(row);
      const source = this.audio(par, smilPath, row);
      const text = await this.text(par, smilPath);
      if (typeof text === 'string') row.error ??= text;
      else Object.assign(row, text);
      row.error ??= rowTextProblem(row);
      if (source && !row.error) sources.set(row, source);
    }
    if (!pars.length) chapter.errors.push('Its media overlay has no phrases (no <par>).');
    return done;
  }

  /** The phrase's text and glossary, or what is wrong with its `<text>`. */
  private async text(par: XmlElement, smilPath: string) {
    // A par's own children, never a search of its subtree: a par holds one <text> and one <audio>.
    const textElement = childNamed(par, 'text');
    const src = textElement && attr(textElement, 'src');
    if (!src) return 'The phrase has no text (no <text src> in its <par>).';
    const to = resolveHref(smilPath, src);
    if ('outside' in to) return `Its text ${to.outside}.`;
    if (!this.listed.has(to.path)) return `Its text ${short(to.path)} is not in the package's manifest.`;
    if (!this.files.has(to.path)) return `Its text ${short(to.path)} is missing from the EPUB.`;
    const doc = await this.document(to.path);
    if (typeof doc === 'string') return doc;
    const element = to.fragment ? doc.byId(to.fragment) : undefined;
    if (!element) return `Its text ${short(src)} names no element of ${short(to.path)}.`;
    return doc.phrase(element);
  }

  /** Where the phrase's clip is, or null after noting the problem on the row. */
  private audio(par: XmlElement, smilPath: string, row: ChapterRow): ClipSource | null {
    const audio = childNamed(par, 'audio');
    const src = audio && attr(audio, 'src');
    if (!audio || !src) {
      row.error = 'The phrase has no audio (no <audio src> in its <par>).';
      return null;
    }
    const to = resolveHref(smilPath, src);
    if ('outside' in to) {
      row.error = `Its audio ${to.outside}.`;
      return null;
    }
    const begin = parseClock(attr(audio, 'clipBegin') ?? '0');
    const endText = attr(audio, 'clipEnd');
    const end = endText === undefined ? null : parseClock(endText);
    row.clip = `${to.path} ${formatClock(begin ?? 0)}–${end === null ? 'end' : formatClock(end)}`;
    if (!this.listed.has(to.path))
      row.error = `Its audio ${short(to.path)} is not in the package's manifest.`;
    else if (!this.files.has(to.path)) row.error = `Its audio ${short(to.path)} is missing from the EPUB.`;
    else if (begin === null || (endText !== undefined && end === null))
      row.error = `Its clip times are not SMIL clock values: clipBegin "${short(attr(audio, 'clipBegin') ?? '')}", clipEnd "${short(endText ?? '')}".`;
    else if (end !== null && end <= begin) row.error = 'Its clip ends before it begins.';
    else if (end !== null && end - begin < MIN_CLIP_MS)
      row.error = `Its clip lasts ${Math.round(end - begin)} ms; the least for a phrase is ${MIN_CLIP_MS} ms.`;
    else if (end !== null && end - begin > MAX_CLIP_MS)
      row.error = `Its clip lasts ${((end - begin) / 1000).toFixed(1)} s; the most for a phrase is ${MAX_CLIP_MS / 1000} s.`;
    return row.error || begin === null ? null : { audio: to.path, begin, end };
  }

  /** A content document, read once while kept (the last DOCUMENTS_KEPT); a string says why it cannot be read. */
  private async document(path: string): Promise<ContentDocument | string> {
    let doc = this.documents.get(path);
    if (doc === undefined) {
      const xml = await this.files.text(path, 'content');
      doc = typeof xml === 'string' ? new ContentDocument(xml, path) : `${short(path)}: ${xml.problem}`;
      if (this.documents.size >= DOCUMENTS_KEPT) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(path, doc);
    }
    return doc;
  }
}
