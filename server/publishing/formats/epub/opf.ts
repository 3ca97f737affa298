import { createHash } from 'node:crypto';
import { chapterHref, CSS_HREF, SAMPLE_END_HREF, ACTIVE_CLASS } from './xhtml';
import { smilHref } from './smil';
import { clock, esc, modifiedStamp, XML_DECLARATION } from './xml';

export const OPF_PATH = 'OEBPS/package.opf';
export const NAV_HREF = 'nav.xhtml';
export const COVER_HREF = 'images/cover.jpg';

export const CONTAINER_XML = `${XML_DECLARATION}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles>
<rootfile full-path="${OPF_PATH}" media-type="application/oebps-package+xml"/>
</rootfiles>
</container>
`;

/**
 * The namespace of book identifiers (RFC 4122 section 4.3): a UUID fixed once for Lingonovel's EPUBs, so the
 * same name always gives the same identifier and never one of another namespace's.
 */
const BOOK_NAMESPACE = '534b2cd5-789b-4c1b-b0e9-80b99f3072c5';

/** RFC 4122 version 5: SHA-1 of the namespace's 16 bytes then the name's UTF-8, version and variant set. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The book's identifier: a version 5 UUID of the book's code, so every download of a book carries the same
 * one and a reading app replaces its copy instead of keeping two; the sample has its own, so it never stands
 * in for the whole book. The code is what stays put: the public URL changes with a new domain, and the
 * installation keeps no id of its own. The trade-off: two installations' books with the same code share an
 * identifier (docs/formats.md "EPUB 3 with Media Overlays").
 */
export function bookIdentifier(bookCode: string, whole: boolean): string {
  return `urn:uuid:${uuidV5(BOOK_NAMESPACE, `${bookCode}${whole ? '' : '#sample'}`)}`;
}

export interface OpfBook {
  identifier: string;
  title: string;
  language: string;
  author: string;
  narrator: string;
  modified: Date;
}

export interface OpfChapter {
  chapterNo: number;
  /** The overlay's length, the sum of its clips'; null for a chapter without phrases (no overlay). */
  overlayUs: number | null;
}

export interface OpfAudio {
  href: string;
  mediaType: string;
}

/**
 * The package document, written last: only then are the overlays' lengths known. The total is the sum of
 * the same whole microseconds, so it equals the sum of the parts exactly (EPUBCheck checks it).
 */
export function packageOpf(
  book: OpfBook,
  chapters: readonly OpfChapter[],
  audio: readonly OpfAudio[],
  sampleEnd: boolean,
): string {
  const overlays = chapters.filter((chapter) => chapter.overlayUs !== null);
  const totalUs = overlays.reduce((sum, chapter) => sum + chapter.overlayUs!, 0);
  const meta = [
    `<dc:identifier id="pub-id">${esc(book.identifier)}</dc:identifier>`,
    `<dc:title>${esc(book.title)}</dc:title>`,
    `<dc:language>${esc(book.language)}</dc:language>`,
    book.author.trim() && `<dc:creator id="author">${esc(book.author)}</dc:creator>`,
    `<meta property="dcterms:modified">${modifiedStamp(book.modified)}</meta>`,
    `<meta name="cover" content="cover-image"/>`,
    ...(overlays.length
      ? [
          ...overlays.map(
            (chapter) =>
              `<meta property="media:duration" refines="#overlay-${chapter.chapterNo}">${clock(chapter.overlayUs!)}</meta>`,
          ),
          `<meta property="media:duration">${clock(totalUs)}</meta>`,
          book.narrator.trim() && `<meta property="media:narrator">${esc(book.narrator)}</meta>`,
          `<meta property="media:active-class">${ACTIVE_CLASS}</meta>`,
        ]
      : []),
  ].filter(Boolean);
  const items = [
    `<item id="nav" href="${NAV_HREF}" media-type="application/xhtml+xml" properties="nav"/>`,
    `<item id="css" href="${CSS_HREF}" media-type="text/css"/>`,
    `<item id="cover-image" href="${COVER_HREF}" media-type="image/jpeg" properties="cover-image"/>`,
    ...chapters.flatMap((chapter) =>
      chapter.overlayUs === null
        ? [
            `<item id="chapter-${chapter.chapterNo}" href="${chapterHref(chapter.chapterNo)}" media-type="application/xhtml+xml"/>`,
          ]
        : [
            `<item id="chapter-${chapter.chapterNo}" href="${chapterHref(chapter.chapterNo)}" media-type="application/xhtml+xml" media-overlay="overlay-${chapter.chapterNo}"/>`,
            `<item id="overlay-${chapter.chapterNo}" href="${smilHref(chapter.chapterNo)}" media-type="application/smil+xml"/>`,
          ],
    ),
    ...(sampleEnd
      ? [`<item id="sample-end" href="${SAMPLE_END_HREF}" media-type="application/xhtml+xml"/>`]
      : []),
    ...audio.map(
      (clip, i) => `<item id="audio-${i + 1}" href="${esc(clip.href)}" media-type="${clip.mediaType}"/>`,
    ),
  ];
  const spine = [
    ...chapters.map((chapter) => `<itemref idref="chapter-${chapter.chapterNo}"/>`),
    ...(sampleEnd ? ['<itemref idref="sample-end"/>'] : []),
  ];
  return `${XML_DECLARATION}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" xml:lang="${esc(book.language)}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
${meta.join('\n')}
</metadata>
<manifest>
${items.join('\n')}
</manifest>
<spine>
${spine.join('\n')}
</spine>
</package>
`;
}
