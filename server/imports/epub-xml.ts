import { Parser } from 'htmlparser2';
import { posix } from 'node:path';

/**
 * The XML of an EPUB (container.xml, the package, SMIL, XHTML) read into a small tree with htmlparser2 in
 * XML mode, which never reads a DTD and expands no entity but XML's five. A document that declares
 * entities anyway is refused before parsing (XmlRejected): a "billion laughs" is refused by its
 * declaration, whatever a later reader would do with it.
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

const ENTITY_DECLARATION = /<!ENTITY/i;

/** Parses a document; XmlRejected when it declares entities. The root is a nameless element. */
export function parseXml(text: string, name: string): XmlElement {
  if (ENTITY_DECLARATION.test(text))
    throw new XmlRejected(
      `${name} declares XML entities (<!ENTITY>): the EPUB is refused, as entity expansion can make a small file enormous.`,
    );
  const root: XmlElement = { name: '', attrs: {}, children: [], parent: null };
  let current = root;
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        const element: XmlElement = { name: tag, attrs, children: [], parent: current };
        current.children.push(element);
        current = element;
      },
      onclosetag() {
        current = current.parent ?? root;
      },
      ontext(data) {
        current.children.push(data);
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

export const findFirst = (from: XmlElement, ...names: string[]): XmlElement | undefined =>
  findAll(from, ...names)[0];

/** An attribute by its local name (`epub:type` answers to `type`), or undefined. */
export function attr(element: XmlElement, name: string): string | undefined {
  if (element.attrs[name] !== undefined) return element.attrs[name];
  const key = Object.keys(element.attrs).find((k) => localName(k) === name);
  return key === undefined ? undefined : element.attrs[key];
}

/** The whitespace-separated words of an attribute (`properties`, `epub:type`). */
export const words = (element: XmlElement, name: string) =>
  (attr(element, name) ?? '').split(/\s+/).filter(Boolean);

/** The text inside an element, leaving out the subtrees `skip` picks, with whitespace collapsed. */
export function textOf(element: XmlElement, skip: (element: XmlElement) => boolean = () => false): string {
  // A stack, not recursion: a hostile document may nest elements deeper than the call stack goes.
  let out = '';
  const stack: XmlNode[] = [...element.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) out += node;
    else if (!skip(node)) {
      if (localName(node.name) === 'br') out += ' ';
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  // NUL is no XML character, and no text field takes it.
  return out.replace(/\0/g, '').replace(/\s+/g, ' ').trim();
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
  const joined = posix.normalize(posix.join(posix.dirname(from), file));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/'))
    return { outside: `"${short(href)}" points outside the book` };
  return { path: joined, fragment: fragmentDecoded(fragment) };
}

const fragmentDecoded = (fragment: string) => decodeURIComponent(fragment);
export const short = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…` : text);
