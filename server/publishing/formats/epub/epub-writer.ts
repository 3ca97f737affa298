import { Readable, type PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import type { EpubClip } from '../epub-clips';
import {
  CONTAINER_XML,
  COVER_HREF,
  NAV_HREF,
  OPF_PATH,
  packageOpf,
  type OpfAudio,
  type OpfBook,
  type OpfChapter,
} from './opf';
import { chapterSmil, smilHref, type OverlayPar } from './smil';
import {
  BOOK_CSS,
  chapterHref,
  chapterTitle,
  chapterXhtml,
  CSS_HREF,
  navXhtml,
  SAMPLE_END_HREF,
  sampleEndXhtml,
  type PhraseText,
} from './xhtml';

export interface EpubChapter {
  chapterNo: number;
  title: string;
  phrases: Array<PhraseText & { audioPath: string }>;
}

/** What the writer reads from elsewhere: clips, measured chapter by chapter. */
export interface EpubSources {
  /** The EPUB clips of these audio paths (EpubClips.forEpub); stops taking work once `signal` aborts. */
  clips(audioPaths: string[], signal: AbortSignal): Promise<Map<string, EpubClip>>;
  readClip(clip: EpubClip): Promise<Readable>;
}

export interface EpubPlan {
  book: OpfBook;
  chapters: EpubChapter[];
  /** The first chapter's clips, asked before the first byte so that a missing ffmpeg is a 503, not a cut. */
  firstClips: Map<string, EpubClip>;
  /** The sample's closing page, when this is the sample. */
  sampleEnd: { title: string; author: string; url: string } | null;
  /** The cover as JPEG, made before the first byte so that a bad image is an answer, not a cut download. */
  cover: Buffer;
}

const text = (value: string) => Readable.from([Buffer.from(value, 'utf8')]);

/**
 * Streams the EPUB (docs/formats.md "EPUB 3 with Media Overlays"). Entries are queued one chapter at a
 * time and each is made or opened only when its turn comes, so memory holds the book's text and one clip;
 * the next chapter's clips are measured while this one goes out. The package document comes last, once
 * every overlay's length is known. A failure midway destroys the output: a cut EPUB never looks whole.
 */
export function writeEpub(
  plan: EpubPlan,
  sources: EpubSources,
  onError: (error: Error) => void,
): PassThrough {
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  let reading: Readable | undefined;
  let failed = false;
  // Stops the next chapter's measuring and transcoding: they hold the process's ffmpeg slots for nothing.
  const stop = new AbortController();
  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    stop.abort(error);
    onError(error);
    output.destroy(error);
  };
  zip.on('error', fail);
  // A client that hangs up stops the zip midway: the file being read would stay open, and the loop below
  // would wait forever for an entry yazl never reaches, holding the book's text.
  const closed = new Promise<void>((resolve) =>
    output.on('close', () => {
      failed = true;
      stop.abort(new Error('The EPUB download was closed.'));
      reading?.destroy();
      resolve();
    }),
  );

  /** Queues an entry whose bytes are made when yazl reaches it; resolves then. */
  const entry = (name: string, compress: boolean, open: () => Readable | Promise<Readable>) =>
    new Promise<void>((reached) => {
      zip.addReadStreamLazy(name, { compress }, (give) => {
        reached();
        Promise.resolve()
          .then(open)
          .then((stream) => {
            reading = stream;
            stream.on('error', fail);
            give(null, stream);
          }, fail);
      });
    });

  // The OCF rules: `mimetype` first, stored, with no extra field (EPUBCheck PKG-005, PKG-006, PKG-007).
  zip.addBuffer(Buffer.from('application/epub+zip', 'ascii'), 'mimetype', {
    compress: false,
    forceDosTimestamp: true,
  });
  void entry('META-INF/container.xml', true, () => text(CONTAINER_XML));

  const run = async () => {
    const lang = plan.book.language;
    const audio: OpfAudio[] = [];
    const hrefOf = new Map<string, string>();
    const opfChapters: OpfChapter[] = [];
    const nav = plan.chapters.map((chapter) => ({
      href: chapterHref(chapter.chapterNo),
      title: chapterTitle(chapter.title, chapter.chapterNo),
    }));
    const chapters = plan.chapters;
    let next: Promise<Map<string, EpubClip>> = Promise.resolve(plan.firstClips);
    for (let i = 0; i < chapters.length; i++) {
      const chapter = chapters[i];
      const clips = await next;
      // Checked before the next chapter's clips are asked for: after a hang-up or a failure, no more ffmpeg.
      if (failed) return;
      if (i + 1 < chapters.length) {
        next = sources.clips(
          chapters[i + 1].phrases.map((phrase) => phrase.audioPath),
          stop.signal,
        );
        next.catch(() => undefined); // awaited on the next turn; until then, not an unhandled rejection
      }
      const pars: OverlayPar[] = [];
      const newClips: Array<{ href: string; clip: EpubClip }> = [];
      chapter.phrases.forEach((phrase, k) => {
        const clip = clips.get(phrase.audioPath)!;
        let href = hrefOf.get(phrase.audioPath);
        if (!href) {
          href = `audio/c${chapter.chapterNo}-${k + 1}.${clip.ext}`;
          hrefOf.set(phrase.audioPath, href);
          audio.push({ href, mediaType: clip.mediaType });
          newClips.push({ href, clip });
        }
        pars.push({ audioHref: href, decodedUs: Math.round(clip.decodedUs) });
      });
      const title = chapterTitle(chapter.title, chapter.chapterNo);
      void entry(`OEBPS/${chapterHref(chapter.chapterNo)}`, true, () =>
        text(chapterXhtml(lang, title, chapter.phrases)),
      );
      for (const { href, clip } of newClips) void entry(`OEBPS/${href}`, false, () => sources.readClip(clip));
      opfChapters.push({
        chapterNo: chapter.chapterNo,
        overlayUs: pars.length ? pars.reduce((sum, par) => sum + par.decodedUs, 0) : null,
      });
      // The chapter's last entry: once yazl reaches it, the chapter's text and clips have gone by.
      const last = pars.length
        ? entry(`OEBPS/${smilHref(chapter.chapterNo)}`, true, () =>
            text(chapterSmil(chapterHref(chapter.chapterNo), pars)),
          )
        : Promise.resolve();
      // The plan (and so every chapter's text) stays referenced until the stream ends: the book's text is
      // small next to its audio, and only one clip at a time is read.
      await Promise.race([last, closed]);
    }
    if (failed) return;
    if (plan.sampleEnd) {
      const { title, author, url } = plan.sampleEnd;
      void entry(`OEBPS/${SAMPLE_END_HREF}`, true, () => text(sampleEndXhtml(title, author, url)));
      nav.push({ href: SAMPLE_END_HREF, title: 'End of the sample' });
    }
    void entry(`OEBPS/${NAV_HREF}`, true, () => text(navXhtml(lang, plan.book.title, nav)));
    void entry(`OEBPS/${CSS_HREF}`, true, () => text(BOOK_CSS));
    void entry(`OEBPS/${COVER_HREF}`, false, () => Readable.from([plan.cover]));
    void entry(OPF_PATH, true, () =>
      text(packageOpf(plan.book, opfChapters, audio, plan.sampleEnd !== null)),
    );
    zip.end();
  };
  run().catch(fail);
  return output;
}
