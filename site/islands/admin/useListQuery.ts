import { useCallback, useEffect, useRef, useState } from 'react';
import { listQueryString, readListQuery, type ListQuery } from '../../lib/list-query';

/**
 * How a change of the Book List's query (site/lib/list-query.ts) enters the browser's history: `push` a
 * new entry (a filter, a page), `replace` the current one (a page that no longer exists), or `typing`:
 * the first search of a run of typing is pushed and the following ones replace it, so Back leaves the
 * search instead of taking it back a letter at a time.
 */
export type HistoryMode = 'push' | 'replace' | 'typing';

const TYPING_STATE = 'admin-book-list-typing';

/** The Book List's query, read from the URL, written back to it, and read again on Back and Forward. */
export function useListQuery(): [ListQuery, (change: Partial<ListQuery>, mode?: HistoryMode) => void] {
  const [query, setQuery] = useState(() => readListQuery(window.location.search));
  const current = useRef(query);
  current.current = query;

  useEffect(() => {
    const restore = () => setQuery(readListQuery(window.location.search));
    window.addEventListener('popstate', restore);
    return () => window.removeEventListener('popstate', restore);
  }, []);

  const change = useCallback((patch: Partial<ListQuery>, mode: HistoryMode = 'push') => {
    const next = { ...current.current, ...patch };
    const search = listQueryString(next);
    const url = `${window.location.pathname}${search ? `?${search}` : ''}`;
    const typedBefore = (window.history.state as { [TYPING_STATE]?: boolean } | null)?.[TYPING_STATE];
    const replace =
      mode === 'replace' ||
      (mode === 'typing' && typedBefore) ||
      url === window.location.pathname + window.location.search;
    const state = { [TYPING_STATE]: mode === 'typing' };
    if (replace) window.history.replaceState(state, '', url);
    else window.history.pushState(state, '', url);
    current.current = next;
    setQuery(next);
  }, []);

  return [query, change];
}
