import { browseQueryString, NO_LEVEL, type BrowseFilter } from '../../server/content/catalogue/browse-query';
import { languageName, NO_LANGUAGE, NO_LANGUAGE_NAME } from '../../server/content/catalogue/languages';

/** How the catalogue's pages (/books, /learn/{language}) name and link what they show. */

/**
 * The seed's pages (/lingostory, /lingonovel-story, /ling) show the newest books, at most this many: the
 * whole catalogue, filtered and searched, is /books. Nothing public renders every book.
 */
export const SHOWCASE_SIZE = 24;

/** The CEFR levels' names, for the catalogue's pages (the admin's use the same table, ./cefr.ts). */
export { LEVEL_NAMES } from './cefr';

/** A language by its URL word ("pt-pt", "none"), in English. */
export const languageOfKey = (key: string) => (key === NO_LANGUAGE ? NO_LANGUAGE_NAME : languageName(key));

/** A level by its URL word ("A2", "none"). */
export const levelOfKey = (key: string) => (key === NO_LEVEL ? 'No level' : key);

/** A book's length as a learner reads it: "1 h 10 min", "45 min". */
export function bookLength(hours: number, minutes: number): string {
  if (!hours) return `${minutes} min`;
  return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
}

/** The catalogue's URL for a filter, in its one canonical spelling (what the server would redirect to). */
export function booksUrl(filter: Partial<BrowseFilter>): string {
  const query = browseQueryString(filter);
  return query ? `/books?${query}` : '/books';
}
