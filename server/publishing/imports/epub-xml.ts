import { Parser } from 'htmlparser2';
import { posix } from 'node:path';
import { cutAtLeast, shortened } from '../../platform/common/cut-text';

/**
 * The XML of an EPUB (container.xml, the package, SMIL, XHTML) read into a small tree with htmlparser2 in
 * XML mode, which never reads a DTD and expands no entity but XML's five. A document with a DOCTYPE
 * internal subset (where entities are declared) is refused before parsing (XmlRejected): a "billion
 * laughs" is refused by its declaration, whatever a later reader would do with it. A tree costs tens of
 * bytes of heap per byte of input, so the nodes of one document are counted and bounded (MAX_NODES).
 */

/** An element: its name as written (prefixes kept: `dc:title`, `epub:type`), attributes, children. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  parent: XmlElement | null;
}
export type XmlNode = XmlElement | string;

/** A document refused whole: the message says which and why. */
export class XmlRejected extends Error {}

/** `<!DOCTYPE name … [`: an internal subset, the only place a document can declare entities. */
const INTERNAL_SUBSET = /<!DOCTYPE[^>[]*\[/i;
/** Elements and text nodes one document may have: a 200,000-node tree is some tens of MB of heap. */
export const MAX_NODES = 200_000;

/** A document with more of the elements `limit` names than its `max`: what counts is the caller's. */
export class XmlCountExceeded extends Error {}

export interface ParseLimits {
  /** Stop (XmlCountExceeded) once more than `max` elements have the local name `name`. */
  count?: { name: string; max: number };
}

/**
 * Parses a document; XmlRejected when it has a DOCTYPE internal subset or more than MAX_NODES nodes.
 * The root is a nameless element. `&nbsp;`, which XML mode leaves as written, is read as U+00A0.
 */
export function parseXml(text: string, name: string, limits: ParseLimits = {}): XmlElement {
  if (INTERNAL_SUBSET.test(text))
    throw new XmlRejected(
      `${name} declares XML entities (<!ENTITY>): the EPUB is refused, as entity expansion can make a small file enormous.`,
    );
  const root: XmlElement = { name: '', attrs: {}, children: [], parent: null };
  let current = root;
  let nodes = 0;
  let counted = 0;
  const grow = () => {
    if (++nodes > MAX_NODES)
      throw new XmlRejected(`${name} has more than ${MAX_NODES} elements: the EPUB is refused.`);
  };
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        grow();
        if (limits.count && localName(tag) === limits.count.name && ++counted > limits.count.max)
          throw new XmlCountExceeded(`${name} has more than ${limits.count.max} <${limits.count.name}>.`);
        const element: XmlElement = { name: tag, attrs, children: [], parent: current };
        current.children.push(element);
        current = element;
      },
      onclosetag() {
        current = current.parent ?? root;
      },
      ontext(data) {
        grow();
        current.children.push(data.includes('&nbsp;') ? data.split('&nbsp;').join('\u00a0') : data);
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  parser.write(text);
  parser.end();
  return root;
}

/** A name without its namespace prefix: `dc:title` → `title`. Prefixes vary; the local names do not. */
export const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

export const isElement = (node: XmlNode): node is XmlElement => typeof node !== 'string';

/** Every element below `from`, in document order, whose local name is one of `names` (all, without names). */
export function findAll(from: XmlElement, ...names: string[]): XmlElement[] {
  const found: XmlElement[] = [];
  const stack: XmlNode[] = [...from.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (!names.length || names.includes(localName(node.name))) found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return found;
}

/** The first element below `from`, in document order, with one of the local names: stops there. */
export function findFirst(from: XmlElement, ...names: string[]): XmlElement | undefined {
  const stack: XmlNode[] = [...from.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (names.includes(localName(node.name))) return node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return undefined;
}

/** The first direct child of `from` with the local name `name`: a SMIL par's own <text> and <audio>. */
export const childNamed = (from: XmlElement, name: string): XmlElement | undefined =>
  from.children.find((node): node is XmlElement => isElement(node) && localName(node.name) === name);

/** An attribute by its local name (`epub:type` answers to `type`), or undefined. */
export function attr(element: XmlElement, name: string): string | undefined {
  if (element.attrs[name] !== undefined) return element.attrs[name];
  const key = Object.keys(element.attrs).find((k) => localName(k) === name);
  return key === undefined ? undefined : element.attrs[key];
}

/** The whitespace-separated words of an attribute (`properties`, `epub:type`). */
export const words = (element: XmlElement, name: string) =>
  (attr(element, name) ?? '').split(/\s+/).filter(Boolean);

/** Elements whose start and end separate words: `<p>a</p><p>b</p>` reads "a b". */
const BREAKS = new Set([
  'br',
  'p',
  'div',
  'li',
  'dd',
  'dt',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'td',
  'th',
  'tr',
]);
/** Ruby annotations (the reading of a kanji) and their fallback parentheses are not the text's words. */
const RUBY_EXTRAS = new Set(['rt', 'rp']);

/**
 * The text inside an element, leaving out the subtrees `skip` picks, with XML whitespace collapsed (a
 * no-break or ideographic space is the author's and stays). It stops once longer than `maxChars`
 * (answering `maxChars` characters, one more rather than half an emoji: pass one more than a field takes,
 * to see it is too long) and after `maxNodes` nodes.
 */
export function textOf(
  element: XmlElement,
  skip: (element: XmlElement) => boolean = () => false,
  { maxChars = Infinity, maxNodes = Infinity } = {},
): string {
  // A stack, not recursion: a hostile document may nest elements deeper than the call stack goes.
  let out = '';
  let nodes = 0;
  const stack: XmlNode[] = [...element.children].reverse();
  while (stack.length && out.length <= maxChars && ++nodes <= maxNodes) {
    const node = stack.pop()!;
    if (!isElement(node)) out += node;
    else if (!skip(node) && !RUBY_EXTRAS.has(localName(node.name))) {
      if (BREAKS.has(localName(node.name))) {
        out += ' ';
        stack.push(' ');
      }
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  // A control character (NUL too) is kept: the import names it where it is (rowTextProblem, the book
  // form's rules) rather than storing text that differs from the book's without a word.
  return cutAtLeast(out.replace(/[ \t\r\n]+/g, ' ').trim(), maxChars);
}

/** Where a reference leads: the file's path from the zip's root, and its fragment (`#id`). */
export type Resolved = { path: string; fragment: string } | { outside: string };

/**
 * Resolves `href` against the folder of `from` (a path from the zip's root). An absolute path, another
 * scheme (`http:`, `file:`, `data:`) or a `../` beyond the root leads outside the book: never followed.
 */
export function resolveHref(from: string, href: string): Resolved {
  const hash = href.indexOf('#');
  const raw = hash === -1 ? href : href.slice(0, hash);
  const fragment = hash === -1 ? '' : href.slice(hash + 1);
  let file: string;
  try {
    file = decodeURIComponent(raw);
    fragmentDecoded(fragment);
  } catch {
    return { outside: `"${short(href)}" is not a valid reference` };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(file) || file.startsWith('/') || file.includes('\\') || file.includes('\0'))
    return { outside: `"${short(href)}" points outside the book` };
  if (!file) return { path: from, fragment: fragmentDecoded(fragment) };
  // NFC: a Mac may write a name decomposed in the zip and composed in the href, or the other way round.
  const joined = posix.normalize(posix.join(posix.dirname(from), file)).normalize('NFC');
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/'))
    return { outside: `"${short(href)}" points outside the book` };
  return { path: joined, fragment: fragmentDecoded(fragment) };
}

const fragmentDecoded = (fragment: string) => decodeURIComponent(fragment);
export const short = (text: string) => shortened(text, 121);
