/**
 * /words: the member's saved words and phrase cards, newest first, with a search box, a filter by kind
 * (words, phrases or both: the API's `?kind=`) and by book, each card's clip and when it is next due,
 * delete, and the two exports (a CSV for spreadsheets, a zip for Anki), which carry both kinds.
 *
 * Delete asks nothing: the word goes at once, and Undo brings it back (its card and review history
 * too) for a few seconds (UndoDelete). A mistaken tap costs one more tap, not a dialog every time.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  WordBook as BookOption,
  WordDeletedAnswer,
  WordListAnswer as Page,
  WordResponse,
} from '../../../server/learning/words/words.dto';
import { api, apiDownload, errorMessage } from '../../lib/api';
import { cardCount, cardName, type KindFilter } from '../../lib/cards';
import { signedIn } from '../../lib/guards';
import { learnerLanguages, requestTags } from '../../lib/translation-language';
import { useGuard } from '../../lib/useGuard';
import { CardItem } from './CardItem';
import { UndoDelete, type Deleted } from './UndoDelete';
import { DeviceNotice } from '../shared/DeviceNotice';

const PER_PAGE = 50;
const guard = signedIn('/words');

const KINDS: Array<{ value: KindFilter; label: string }> = [
  { value: 'all', label: 'Words and phrases' },
  { value: 'word', label: 'Words' },
  { value: 'phrase', label: 'Phrases' },
];

export default function WordsList() {
  const access = useGuard(guard);
  const [search, setSearch] = useState('');
  const [book, setBook] = useState('');
  const [kind, setKind] = useState<KindFilter>('all');
  const [page, setPage] = useState(1);
  const [words, setWords] = useState<Page | null>(null);
  const [books, setBooks] = useState<BookOption[]>([]);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [reload, setReload] = useState(0);
  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const summary = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (access.status !== 'allowed') return;
    api<{ data: BookOption[] }>('user/words/books')
      .then(({ data }) => setBooks(data))
      .catch(() => undefined);
  }, [access.status, reload]);

  useEffect(() => {
    if (access.status !== 'allowed') return;
    const abort = new AbortController();
    // Typing waits a moment, so a word is one request rather than one a letter.
    const timer = setTimeout(() => {
      const query = new URLSearchParams({ page: String(page), per_page: String(PER_PAGE) });
      if (search.trim()) query.set('q', search.trim());
      if (book) query.set('book_code', book);
      if (kind !== 'all') query.set('kind', kind);
      api<Page>(`user/words?${query}`, { signal: abort.signal })
        .then((answer) => {
          // The last word of the last page deleted: show the page before.
          const last = Math.max(1, Math.ceil(answer.meta.total / PER_PAGE));
          if (page > last) return setPage(last);
          setWords(answer);
          setError(null);
        })
        .catch((failure: unknown) => !abort.signal.aborted && setError(errorMessage(failure)));
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [access.status, search, book, kind, page, reload]);

  const play = (src: string) => {
    const element = audio.current;
    if (!element) return;
    element.src = src;
    element.play().catch(() => setStatus('The clip could not be played.'));
  };

  const remove = async (word: WordResponse) => {
    try {
      const { undo_until } = await api<WordDeletedAnswer>(`user/words/${word.id}`, { method: 'DELETE' });
      setStatus('');
      setDeleted({ word, until: Date.parse(undo_until) });
      // Gone from the page at once; the reload then fills the page up again.
      setWords(
        (page) =>
          page && {
            data: page.data.filter((w) => w.id !== word.id),
            meta: { ...page.meta, total: page.meta.total - 1 },
          },
      );
      setReload((n) => n + 1);
    } catch (failure) {
      setStatus(errorMessage(failure));
    }
  };

  const restore = async (word: WordResponse) => {
    try {
      await api(`user/words/${word.id}/restore`, { method: 'POST' });
      setStatus(`“${cardName(word)}” is back.`);
      // Undo goes: the focus goes back to the list rather than to the top of the page.
      summary.current?.focus();
    } catch (failure) {
      setStatus(errorMessage(failure));
    } finally {
      setDeleted(null);
      setReload((n) => n + 1);
    }
  };

  const download = async (format: 'csv' | 'anki') => {
    setExporting(true);
    try {
      // The learner's languages, so phrase cards' translations in the file are those the page shows.
      const languages = requestTags(await learnerLanguages()).join(',');
      await apiDownload(
        `user/words/export?format=${format}${languages ? `&languages=${encodeURIComponent(languages)}` : ''}`,
        format === 'csv' ? 'lingonovel-words.csv' : 'lingonovel-words-anki.zip',
      );
    } catch (failure) {
      setStatus(errorMessage(failure));
    } finally {
      setExporting(false);
    }
  };

  const expire = useCallback((hadFocus: boolean) => {
    setDeleted(null);
    // Undo goes: the focus goes back to the list rather than to the top of the page.
    if (hadFocus) summary.current?.focus();
  }, []);
  if (access.status !== 'allowed') return <p role="status">Loading your words…</p>;
  const pages = words ? Math.max(1, Math.ceil(words.meta.total / PER_PAGE)) : 1;
  return (
    <div className="words">
      <DeviceNotice />
      <div className="words-tools">
        <label>
          Search
          <input
            type="search"
            value={search}
            maxLength={200}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </label>
        <label>
          Show
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as KindFilter);
              setPage(1);
            }}
          >
            {KINDS.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Book
          <select
            value={book}
            onChange={(e) => {
              setBook(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All books</option>
            {books.map((b) => (
              <option key={b.book_code} value={b.book_code}>
                {b.book_title} ({b.words})
              </option>
            ))}
          </select>
        </label>
        <a className="button" href="/review">
          Review
        </a>
        <button type="button" onClick={() => void download('csv')} disabled={exporting}>
          Export CSV
        </button>
        <button type="button" onClick={() => void download('anki')} disabled={exporting}>
          Export for Anki
        </button>
      </div>
      <p className="words-export-note">
        In the CSV, the clips of free chapters have links that do not expire; those of Premium Plus chapters
        work for 5 to 6 hours, and the file says until when. The Anki zip holds the clips, with a README on
        importing them.
      </p>
      <p role="status" className="words-status">
        {status}
      </p>
      <UndoDelete deleted={deleted} onUndo={(word) => void restore(word)} onExpire={expire} />

      <audio ref={audio} preload="none" />
      {error && <p role="alert">{error}</p>}
      {!words ? (
        <p>Loading…</p>
      ) : words.data.length === 0 ? (
        <p ref={summary} tabIndex={-1} className="words-summary">
          {search || book || kind !== 'all'
            ? `No saved ${kind === 'phrase' ? 'phrase' : kind === 'word' ? 'word' : 'word or phrase'} matches.`
            : 'You have not saved any words yet. While you read, press “Save” beside a glossary entry, or “Add to review” under a phrase.'}
        </p>
      ) : (
        <>
          <p ref={summary} tabIndex={-1} className="words-summary">
            {cardCount(words.meta.total, kind, pages === 1 ? words.data.map((w) => w.kind) : undefined)}
          </p>
          <ul className="word-list">
            {words.data.map((word) => (
              <CardItem key={word.id} word={word} onPlay={play} onDelete={(w) => void remove(w)} />
            ))}
          </ul>
          {pages > 1 && (
            <nav className="pager" aria-label="Pages">
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
