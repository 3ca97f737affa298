/**
 * The Book List's search box, filters and sort. Each change asks the server again (GET admin/book) and
 * goes into the URL; typing searches after a short pause. The options count the books each would show,
 * from the answer's facets, as the public catalogue does.
 */
import { useEffect, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { CEFR_LEVELS, DIFFICULTIES, languageName, type BookList } from '../../lib/admin';
import { NARROWING, type ListParam, type ListQuery } from '../../lib/list-query';
import type { HistoryMode } from './useListQuery';

/** How long typing must pause before the list is searched: one request a word, not one a letter. */
const TYPING_PAUSE_MS = 300;
const MAX_QUERY_LENGTH = 200;

const SORT_OPTIONS = [
  ['newest', 'Newest first'],
  ['title', 'Title, A to Z'],
  ['shortest', 'Shortest first'],
] as const;

type Facets = BookList['meta']['facets'];

const sameSearch = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

export function BookListFilters({
  query,
  change,
  facets,
}: {
  query: ListQuery;
  change: (patch: Partial<ListQuery>, mode?: HistoryMode) => void;
  facets: Facets | null;
}) {
  const [text, setText] = useState(query.q);
  const shown = useRef(query.q);
  shown.current = query.q;
  // The search waiting for typing to pause, and the one the box sent last (until it comes back as the query).
  const typing = useRef<{ timer?: ReturnType<typeof setTimeout>; sent?: string }>({});

  // Back, Forward and "Clear filters" change the search from outside the box: what waits is dropped. The
  // box's own search coming back leaves alone whatever was typed since.
  useEffect(() => {
    const own = typing.current.sent;
    typing.current.sent = undefined;
    if (own !== undefined && sameSearch(own, query.q)) return;
    clearTimeout(typing.current.timer);
    setText(query.q);
  }, [query.q]);
  useEffect(() => () => clearTimeout(typing.current.timer), []);

  const search = (value: string, mode: HistoryMode) => {
    clearTimeout(typing.current.timer);
    if (sameSearch(value, shown.current)) return;
    typing.current.sent = value;
    change({ q: value, page: '' }, mode);
  };
  // The pause is timed from the keystroke itself, never from a render: a render between Back and the box
  // catching up would otherwise see the old text and search it again.
  const type = (value: string) => {
    setText(value);
    clearTimeout(typing.current.timer);
    typing.current.timer = setTimeout(() => search(value, 'typing'), TYPING_PAUSE_MS);
  };

  const choose = (param: ListParam) => (event: ChangeEvent<HTMLSelectElement>) =>
    change({ [param]: event.target.value, page: '' });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    search(text, 'push');
  };
  const narrowed = NARROWING.some((param) => query[param].trim() !== '');

  const lang = query.lang.toLowerCase();
  const cefr = query.cefr.toLowerCase() === 'none' ? 'none' : query.cefr.toUpperCase();
  const difficulty = DIFFICULTIES.find((d) => d.toLowerCase() === query.difficulty.toLowerCase()) ?? '';
  const count = (facet: Record<string, number> | undefined, key: string) =>
    facets ? ` (${(facet?.[key] ?? 0).toLocaleString('en-US')})` : '';

  // The languages that have books under the other filters, most books first, and the chosen one always.
  const languages = Object.entries(facets?.language ?? {}).sort(
    ([a, x], [b, y]) => y - x || nameOf(a).localeCompare(nameOf(b)),
  );
  if (lang && !languages.some(([key]) => key === lang)) languages.push([lang, 0]);

  return (
    <form role="search" aria-label="Find books" className="list-filters" method="get" onSubmit={submit}>
      <div className="field list-search">
        <label htmlFor="book-list-q">Search books</label>
        <input
          id="book-list-q"
          name="q"
          type="search"
          value={text}
          maxLength={MAX_QUERY_LENGTH}
          autoComplete="off"
          aria-describedby="book-list-q-hint"
          onChange={(event) => type(event.target.value)}
        />
        <p id="book-list-q-hint" className="field-hint">
          Title, author, narrator, description
        </p>
      </div>
      <div className="field">
        <label htmlFor="book-list-lang">Language</label>
        <select id="book-list-lang" name="lang" value={lang} onChange={choose('lang')}>
          <option value="">All languages</option>
          {languages.map(([key, books]) => (
            <option key={key} value={key}>
              {nameOf(key)}
              {facets ? ` (${books.toLocaleString('en-US')})` : ''}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="book-list-cefr">CEFR level</label>
        <select id="book-list-cefr" name="cefr" value={cefr} onChange={choose('cefr')}>
          <option value="">All levels</option>
          {CEFR_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
              {count(facets?.cefr, level)}
            </option>
          ))}
          <option value="none">No level{count(facets?.cefr, 'none')}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="book-list-difficulty">Difficulty</label>
        <select
          id="book-list-difficulty"
          name="difficulty"
          value={difficulty}
          onChange={choose('difficulty')}
        >
          <option value="">All difficulties</option>
          {DIFFICULTIES.map((level) => (
            <option key={level} value={level}>
              {level}
              {count(facets?.difficulty, level)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="book-list-sort">Sort by</label>
        <select id="book-list-sort" name="sort" value={query.sort || 'newest'} onChange={choose('sort')}>
          {SORT_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="list-filter-actions">
        <button type="submit" className="button button-secondary">
          Search
        </button>
        {narrowed && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              // A search still waiting for typing to pause goes too, even when the query's own is empty.
              clearTimeout(typing.current.timer);
              setText('');
              change({ lang: '', cefr: '', difficulty: '', q: '', page: '' });
            }}
          >
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}

/** A language facet's key ("es", "pt-pt", "none") by its English name. */
function nameOf(key: string): string {
  return languageName(key === 'none' ? null : key);
}
