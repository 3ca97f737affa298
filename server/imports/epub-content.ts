import { attr, findAll, findFirst, localName, parseXml, textOf, words, type XmlElement } from './epub-xml';

/**
 * A content document (XHTML) as the import reads it: its elements by id, its title, and for a phrase
 * element its text and glossary. A glossary is an `<aside epub:type="footnote">` the phrase links to with
 * a note reference (`<a epub:type="noteref" href="#…">`), as our own EPUB export writes it
 * (docs/formats.md), so that a book exported and imported again keeps its glossaries.
 */
export class ContentDocument {
  private readonly ids = new Map<string, XmlElement>();
  private readonly root: XmlElement;
  private readonly phrases = new Map<XmlElement, { phrase: string; dictionary: string }>();

  constructor(
    xml: string,
    readonly path: string,
  ) {
    this.root = parseXml(xml, path);
    for (const element of findAll(this.root)) {
      const id = attr(element, 'id');
      if (id !== undefined && !this.ids.has(id)) this.ids.set(id, element);
    }
  }

  byId(id: string): XmlElement | undefined {
    return this.ids.get(id);
  }

  /** The first heading, else the document's <title>: a chapter's title when the navigation has none. */
  title(): string | null {
    for (const name of ['h1', 'h2', 'title']) {
      const found = findFirst(this.root, name);
      const text = found && textOf(found, isNote);
      if (text) return text;
    }
    return null;
  }

  /** A phrase's text (note references and footnotes left out) and its glossary lines. */
  phrase(element: XmlElement): { phrase: string; dictionary: string } {
    // Read once: several pars may point at the same element.
    let found = this.phrases.get(element);
    if (!found) this.phrases.set(element, (found = this.readPhrase(element)));
    return found;
  }

  private readPhrase(element: XmlElement): { phrase: string; dictionary: string } {
    const lines: string[] = [];
    for (const ref of [element, ...findAll(element, 'a')].filter(isNoteRef)) {
      const href = attr(ref, 'href') ?? '';
      const aside = href.startsWith('#') ? this.ids.get(safeDecode(href.slice(1))) : undefined;
      if (aside) lines.push(...glossaryLines(aside));
    }
    return { phrase: textOf(element, isNote), dictionary: lines.join('\n') };
  }
}

const isNoteRef = (element: XmlElement) =>
  localName(element.name) === 'a' && words(element, 'type').includes('noteref');

/** A note reference's marker and a footnote are not the phrase's words. */
const isNote = (element: XmlElement) =>
  isNoteRef(element) ||
  (localName(element.name) === 'aside' && words(element, 'type').some((t) => /note$/.test(t)));

/** A footnote's lines: one per innermost paragraph, list item or block, else its whole text. */
function glossaryLines(aside: XmlElement): string[] {
  const blocks = findAll(aside, ...BLOCKS);
  // A block holding another block is not a line of its own: each block marks its nearest block
  // ancestor, so nesting costs one walk up per block, not a search of each block's subtree.
  const holders = new Set<XmlElement>();
  for (const block of blocks) {
    let up = block.parent;
    while (up && up !== aside && !BLOCKS.includes(localName(up.name))) up = up.parent;
    if (up && up !== aside) holders.add(up);
  }
  const lines = blocks.filter((block) => !holders.has(block));
  return (lines.length ? lines : [aside]).map((block) => textOf(block, isNoteRef)).filter(Boolean);
}

const BLOCKS = ['p', 'li', 'dd', 'div'];

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
