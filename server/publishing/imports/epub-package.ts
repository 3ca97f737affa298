import {
  attr,
  findAll,
  findFirst,
  parseXml,
  resolveHref,
  short,
  textOf,
  words,
  type XmlElement,
} from './epub-xml';

/** The package document (OPF) of an EPUB, as the import needs it (docs/import.md, "Read-along EPUBs"). */
export interface EpubPackage {
  /** The package document's path from the zip's root. */
  path: string;
  metadata: {
    title: string | null;
    creators: string[];
    narrators: string[];
    language: string | null;
    description: string | null;
  };
  /** Manifest items by id; `path` is null when the href leads outside the book (`outside` says how). */
  items: Map<string, EpubItem>;
  /** The spine's items in reading order, by id (an idref the manifest lacks is kept, to be named). */
  spine: string[];
  coverId: string | null;
  navId: string | null;
  /** Problems of the package itself, for the preview. */
  errors: string[];
}

export interface EpubItem {
  id: string;
  href: string;
  path: string | null;
  outside: string | null;
  mediaType: string;
  properties: string[];
  /** The id of its media overlay (SMIL) item, if any. */
  overlay: string | null;
}

/** The package document's path, from META-INF/container.xml's first rootfile; null when there is none. */
export function packagePath(containerXml: string): string | null {
  const rootfile = findAll(parseXml(containerXml, 'META-INF/container.xml'), 'rootfile').find(
    (element) =>
      (attr(element, 'media-type') ?? 'application/oebps-package+xml') === 'application/oebps-package+xml',
  );
  const full = rootfile && attr(rootfile, 'full-path');
  if (!full) return null;
  const resolved = resolveHref('', full);
  return 'path' in resolved ? resolved.path : null;
}

const textOrNull = (element: XmlElement | undefined) => (element ? textOf(element) || null : null);

/**
 * Metadata entries read from a package: a book has a few creators and a few dozen metas; a package with
 * thousands is no book's, and reading them all would only cost time.
 */
export const MAX_METADATA = 100;

export function readPackage(xml: string, path: string): EpubPackage {
  const doc = parseXml(xml, path);
  const metadata = findFirst(doc, 'metadata') ?? doc;
  const metas = findAll(metadata, 'meta').slice(0, MAX_METADATA);
  const property = (name: string) =>
    metas
      .filter((meta) => attr(meta, 'property') === name)
      .map((meta) => textOf(meta, undefined, { maxChars: 1000 }))
      .filter(Boolean);
  // EPUB 3 names a creator's role with a refining meta; EPUB 2 with opf:role. "nrt" is the narrator.
  const roles = new Map<string, string>();
  for (const meta of metas) {
    const refines = attr(meta, 'refines');
    if (refines && attr(meta, 'property') === 'role' && !roles.has(refines)) roles.set(refines, textOf(meta));
  }
  const creators: string[] = [];
  const narrators = property('media:narrator');
  for (const creator of findAll(metadata, 'creator').slice(0, MAX_METADATA)) {
    const name = textOf(creator, undefined, { maxChars: 1000 });
    if (!name) continue;
    const id = attr(creator, 'id');
    const role = (id === undefined ? undefined : roles.get(`#${id}`)) ?? attr(creator, 'role') ?? 'aut';
    if (role === 'nrt') narrators.push(name);
    else creators.push(name);
  }
  const pkg: EpubPackage = {
    path,
    metadata: {
      title: textOrNull(findFirst(metadata, 'title')),
      creators,
      narrators,
      language: textOrNull(findFirst(metadata, 'language')),
      description: textOrNull(findFirst(metadata, 'description')),
    },
    items: new Map(),
    spine: [],
    coverId: null,
    navId: null,
    errors: [],
  };
  for (const item of findAll(findFirst(doc, 'manifest') ?? doc, 'item')) {
    const id = attr(item, 'id');
    const href = attr(item, 'href');
    if (!id || !href) {
      pkg.errors.push(`The package lists an item without ${id ? 'an href' : 'an id'}.`);
      continue;
    }
    const resolved = resolveHref(path, href);
    pkg.items.set(id, {
      id,
      href,
      path: 'path' in resolved ? resolved.path : null,
      outside: 'outside' in resolved ? `The package's item ${short(id)}: ${resolved.outside}.` : null,
      mediaType: attr(item, 'media-type') ?? '',
      properties: words(item, 'properties'),
      overlay: attr(item, 'media-overlay') ?? null,
    });
  }
  const spine = findFirst(doc, 'spine');
  if (spine) pkg.spine = findAll(spine, 'itemref').map((ref) => attr(ref, 'idref') ?? '');
  const items = [...pkg.items.values()];
  // EPUB 3's cover-image property; EPUB 2's <meta name="cover" content="id">.
  pkg.coverId =
    items.find((item) => item.properties.includes('cover-image'))?.id ??
    metas.find((meta) => attr(meta, 'name') === 'cover' && pkg.items.has(attr(meta, 'content') ?? ''))?.attrs
      .content ??
    null;
  pkg.navId = items.find((item) => item.properties.includes('nav'))?.id ?? null;
  return pkg;
}

/** Chapter titles from the navigation document: the text of each link, by the file it leads to. */
export function navTitles(xml: string, path: string): Map<string, string> {
  const doc = parseXml(xml, path);
  const navs = findAll(doc, 'nav');
  const toc = navs.find((nav) => words(nav, 'type').includes('toc')) ?? navs[0] ?? doc;
  const titles = new Map<string, string>();
  for (const link of findAll(toc, 'a')) {
    const href = attr(link, 'href');
    const resolved = href ? resolveHref(path, href) : null;
    const title = textOf(link);
    if (resolved && 'path' in resolved && title && !titles.has(resolved.path))
      titles.set(resolved.path, title);
  }
  return titles;
}
