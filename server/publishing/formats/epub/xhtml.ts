import { splitGlossary } from '../../../content/catalogue/glossary';
import { esc, XML_DECLARATION, xmlText } from './xml';

/** The class a reading system puts on the phrase being read aloud (the OPF's `media:active-class`). */
export const ACTIVE_CLASS = '-epub-media-overlay-active';

export const BOOK_CSS = `body { margin: 0 5%; line-height: 1.5; }
h1 { font-size: 1.4em; margin: 1em 0; }
.phrase { margin: 0 0 0.6em; }
.noteref { font-size: 0.75em; vertical-align: super; text-decoration: none; }
.glossary p { margin: 0; font-size: 0.9em; }
.${ACTIVE_CLASS} { background-color: #fff1a8; color: #000; }
`;

export const CSS_HREF = 'styles/book.css';

/** Where chapter N's text lives inside OEBPS/. */
export const chapterHref = (chapterNo: number) => `text/chapter-${chapterNo}.xhtml`;
export const SAMPLE_END_HREF = 'text/sample-end.xhtml';

/**
 * A chapter's title, or a stand-in: EPUBCheck refuses an empty `<title>` or an empty link in the nav. Judged
 * after dropping what XML cannot hold, so a title made only of such characters gets the stand-in too.
 */
export const chapterTitle = (title: string, chapterNo: number) =>
  xmlText(title).trim() || `Chapter ${chapterNo}`;

function page(lang: string, title: string, body: string): string {
  return `${XML_DECLARATION}<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${esc(lang)}" lang="${esc(lang)}">
<head>
<meta charset="UTF-8"/>
<title>${esc(title)}</title>
<link rel="stylesheet" type="text/css" href="../${CSS_HREF}"/>
</head>
<body>
${body}
</body>
</html>
`;
}

export interface PhraseText {
  phrase: string;
  dictionary: string;
}

/** The id the chapter's SMIL points at for its K-th phrase (from 1). */
export const phraseId = (k: number) => `p${k}`;

/**
 * A chapter's page: each phrase its own paragraph, so the overlay can light it up, and its glossary as a
 * footnote behind a note reference (reading systems show it on demand and skip it when reading aloud).
 */
export function chapterXhtml(lang: string, title: string, phrases: readonly PhraseText[]): string {
  const body = phrases.map((phrase, i) => {
    const k = i + 1;
    const entries = splitGlossary(phrase.dictionary);
    if (!entries.length) return `<p id="${phraseId(k)}" class="phrase">${esc(phrase.phrase)}</p>`;
    const lines = entries
      .map(({ term, meaning }) =>
        meaning ? `<p><b>${esc(term)}</b> — ${esc(meaning)}</p>` : `<p><b>${esc(term)}</b></p>`,
      )
      .join('');
    return (
      `<p id="${phraseId(k)}" class="phrase">${esc(phrase.phrase)}` +
      `<a class="noteref" epub:type="noteref" role="doc-noteref" href="#n${k}">*</a></p>\n` +
      `<aside id="n${k}" class="glossary" epub:type="footnote" role="doc-footnote">${lines}</aside>`
    );
  });
  return page(
    lang,
    title,
    `<section epub:type="chapter">\n<h1>${esc(title)}</h1>\n${body.join('\n')}\n</section>`,
  );
}

/** The sample's last page: what it is, and where the whole book is. */
export function sampleEndXhtml(bookTitle: string, author: string, wholeBookUrl: string): string {
  return page(
    'en',
    'End of the sample',
    `<section epub:type="backmatter">
<h1>End of the sample</h1>
<p>This was a sample of <cite>${esc(bookTitle)}</cite>${xmlText(author).trim() ? ` by ${esc(author.trim())}` : ''}: its first chapter, read aloud.</p>
<p>The whole book is at <a href="${esc(wholeBookUrl)}">${esc(wholeBookUrl)}</a>.</p>
</section>`,
  );
}

export interface NavEntry {
  href: string;
  title: string;
}

/** The navigation document: the table of contents, and where reading starts. */
export function navXhtml(lang: string, bookTitle: string, entries: readonly NavEntry[]): string {
  const items = entries
    .map((entry) => `<li><a href="${esc(entry.href)}">${esc(entry.title)}</a></li>`)
    .join('\n');
  return `${XML_DECLARATION}<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${esc(lang)}" lang="${esc(lang)}">
<head>
<meta charset="UTF-8"/>
<title>${esc(bookTitle)}</title>
<link rel="stylesheet" type="text/css" href="${CSS_HREF}"/>
</head>
<body>
<nav epub:type="toc" id="toc">
<h1 xml:lang="en" lang="en">Contents</h1>
<ol>
${items}
</ol>
</nav>
<nav epub:type="landmarks" id="landmarks" hidden="hidden">
<h2 xml:lang="en" lang="en">Landmarks</h2>
<ol>
<li><a epub:type="bodymatter" href="${esc(entries[0].href)}" xml:lang="en" lang="en">Start of reading</a></li>
</ol>
</nav>
</body>
</html>
`;
}
