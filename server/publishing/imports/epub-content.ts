import { cutAtLeast } from '../../platform/common/cut-text';
import {
  attr,
  findAll,
  findFirst,
  isElement,
  localName,
  parseXml,
  textOf,
  words,
  type XmlElement,
} from './epub-xml';

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
  /** Each footnote's glossary, built once however many note references lead to it. */
  private readonly glossaries = new Map<XmlElement, string>();

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
      const text = found && textOf(found, isNote, { maxChars: 1000 });
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
    // One character past the most a phrase may have: enough for the row to say it is too long.
    const phrase = textOf(element, isNote, { maxChars: MAX_PHRASE + 1, maxNodes: MAX_WALK });
    const asides = new Set<XmlElement>();
    for (const ref of noteRefs(element)) {
      const href = attr(ref, 'href') ?? '';
      const aside = href.startsWith('#') ? this.ids.get(safeDecode(href.slice(1))) : undefined;
      if (aside && isFootnote(aside)) asides.add(aside);
    }
    let dictionary = '';
    for (const aside of asides) {
      let lines = this.glossaries.get(aside);
      if (lines === undefined) this.glossaries.set(aside, (lines = glossaryLines(aside)));
      if (lines) dictionary += dictionary ? `\n${lines}` : lines;
      // Past the most a glossary may have the row has its problem: more would only cost memory.
      if (dictionary.length > MAX_GLOSSARY) break;
    }
    return { phrase, dictionary: cutAtLeast(dictionary, MAX_GLOSSARY + 1) };
  }
}

/** The most characters of a phrase and a glossary (rowTextProblem's), and the nodes one phrase may span. */
const MAX_PHRASE = 2000;
const MAX_GLOSSARY = 5000;
const MAX_WALK = 20_000;
/** Note references read per phrase: a phrase has a few; a thousand are an attack. */
const MAX_NOTEREFS = 20;

/** The phrase element itself when it is a note reference, and the ones inside it, walking MAX_WALK nodes. */
function noteRefs(element: XmlElement): XmlElement[] {
  const found = isNoteRef(element) ? [element] : [];
  const stack = [...element.children].reverse();
  for (let seen = 0; stack.length && seen < MAX_WALK && found.length < MAX_NOTEREFS; seen++) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (isNoteRef(node)) found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return found.slice(0, MAX_NOTEREFS);
}

const isNoteRef = (element: XmlElement) =>
  localName(element.name) === 'a' && words(element, 'type').includes('noteref');

/** A glossary is a footnote or an endnote (as our export writes it), not any element a link leads to. */
const isFootnote = (element: XmlElement) =>
  localName(element.name) === 'aside' &&
  words(element, 'type').some((type) => type === 'footnote' || type === 'endnote');

/** A note reference's marker and a footnote are not the phrase's words. */
const isNote = (element: XmlElement) =>
  isNoteRef(element) ||
  (localName(element.name) === 'aside' && words(element, 'type').some((t) => /note$/.test(t)));

/**
 * A footnote's lines, one per innermost paragraph, list item or block, else its whole text; built only
 * until past MAX_GLOSSARY characters.
 */
function glossaryLines(aside: XmlElement): string {
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
  let out = '';
  for (const block of lines.length ? lines : [aside]) {
    const line = textOf(block, isNoteRef, { maxChars: MAX_GLOSSARY + 1 });
    if (line) out += out ? `\n${line}` : line;
    if (out.length > MAX_GLOSSARY) return cutAtLeast(out, MAX_GLOSSARY + 1);
  }
  return out;
}

const BLOCKS = ['p', 'li', 'dd', 'div'];

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
