import { MAX_PER_PAGE, PAGE_SIZE, parseBrowseQuery } from '../content/catalogue/browse-query';
import { byTag } from '../content/catalogue/repository/phrase-translations.repository';
import type { ChapterLanguages } from '../content/catalogue/translation-index';
import { parseAskedLanguages } from '../content/catalogue/translations-query';
import type { CachedRouteOptions, QueryRule } from './cached-route';

// The cached routes that read their query string, each with the rule that checks it and spells it one way
// (cached-route.ts). Every other cached page and guest answer ignores its query string.

/**
 * The API's page sizes whose answers are kept: the default and the few round sizes clients pick. Each
 * other size (1 to 100 are valid) is answered but not kept, as a search is: kept, `per_page` × `page`
 * would let one client fill the cache with a hundred spellings of the same books (docs/catalogue.md).
 */
export const KEPT_PAGE_SIZES: ReadonlySet<number> = new Set([10, 20, PAGE_SIZE, 25, 50, MAX_PER_PAGE]);

function browseRule(perPage: boolean): QueryRule {
  return (query) => {
    const parsed = parseBrowseQuery(query, { perPage });
    if (!parsed.ok) return null;
    const { q, perPage: size } = parsed.filter;
    // A search is not kept: random words would fill the cache and push the catalogue's pages out.
    return { canonical: parsed.canonical, cacheable: q === null && KEPT_PAGE_SIZES.has(size) };
  };
}

/**
 * A chapter's `?translations=`: keyed on the asked languages the chapter has, sorted
 * (docs/architecture.md, "Public pages: rendered once, served like static files"), so that `de,en`,
 * `en,de,xx` and `en,de` share one entry and languages the chapter lacks add none. The chapter is rendered from the key alone (cached-route.ts), so an answer holds exactly
 * the key's languages. While the index cannot tell, the asked languages key an answer that is not kept.
 */
function chapterRule(languages: ChapterLanguages, bookCode: string, chapterNo: string): QueryRule {
  return (query) => {
    const asked = parseAskedLanguages(query.translations);
    if (!asked.ok) return null;
    const has = asked.tags.length ? languages.languagesOf(bookCode, chapterNo) : [];
    const kept = has === null ? asked.tags : asked.tags.filter((tag) => has.includes(tag));
    const canonical = kept.length ? `translations=${kept.sort(byTag).join(',')}` : '';
    return { canonical, cacheable: has !== null };
  };
}

const CHAPTER_API = /^\/api\/v1\/guest\/book\/([^/]+)\/chapter\/([^/]+)$/;

const PAGE_RULES = new Map<string, QueryRule>([['/books', browseRule(false)]]);
const API_RULES = new Map<string, QueryRule>([['/api/v1/guest/books', browseRule(true)]]);

export const pageQueryRule = (path: string) => PAGE_RULES.get(path);

/** The guest API's rules; a chapter's key needs the languages each chapter has (content/catalogue/translation-index.ts). */
export function apiQueryRules(languages: ChapterLanguages): (path: string) => QueryRule | undefined {
  return (path) => {
    const chapter = CHAPTER_API.exec(path);
    return chapter ? chapterRule(languages, chapter[1], chapter[2]) : API_RULES.get(path);
  };
}

/** How the pages' cached route (pages.ts) and the guest API's (create-app.ts) read a query. */
export const PAGE_ROUTES: CachedRouteOptions = { rules: pageQueryRule, pages: true };
export const apiRoutes = (languages: ChapterLanguages): CachedRouteOptions => ({
  rules: apiQueryRules(languages),
});
