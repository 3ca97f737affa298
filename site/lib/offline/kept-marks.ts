/**
 * A member's marks, phrase cards and saved words of a chapter, kept on the device so the reader shows
 * them offline too (docs/offline.md, "Practice offline"): the "Lost" and "Not sure" badges, "In review",
 * and the saved-word star. The device keeps the server's last answers for the chapter in IndexedDB
 * (`state` → `marks:{member}:{book}:{chapter}` and `words:…`): a download keeps them, and the reader
 * keeps them again whenever it reads them online or changes them. Offline, the reader reads them back and
 * adds the words saved meanwhile, which wait in the queue (queue.ts). They are the member's data: they go
 * at sign-out with the member's paid downloads (member.ts).
 */
import type { WordResponse } from '../../../server/learning/words/words.dto';
import { api } from '../api';
import { getToken, getUser } from '../session';
import { marksKey, statusesKey, wordsKey } from './names';
import { pendingActions } from './queue';
import { get, offlineSupported, put } from './store';

export type Mark = 'got' | 'unsure' | 'lost';

/** What phrase-marks.ts shows: the marks of a chapter's phrases, and its phrase cards. */
export interface KeptMarks {
  marks: Array<{ phrase_id: number; mark: Mark }>;
  cards: Array<{ id: number; phrase_id: number }>;
}

/** What glossary-marks.ts shows: the glossary entries saved from a chapter's phrases. */
export type KeptWords = Array<{ id: number; phrase_id: number; term: string }>;

/** What word-marks.ts shows: the chapter's forms the member knows or is learning (the rest are new). */
export type KeptStatuses = Record<string, 'known' | 'learning'>;

interface Kinds {
  marks: KeptMarks;
  words: KeptWords;
  statuses: KeptStatuses;
}

const KEYS = { marks: marksKey, words: wordsKey, statuses: statusesKey };

/** The member signed in here, or null. */
function member(): number | null {
  return getToken() ? (getUser()?.id ?? null) : null;
}

/** Keeps the server's answer for a chapter for the member signed in (nothing where the device keeps nothing). */
export async function keepCopy<K extends keyof Kinds>(
  kind: K,
  book: string,
  chapter: number,
  value: Kinds[K],
  who = member(),
): Promise<void> {
  if (who === null || !offlineSupported()) return;
  await put('state', value, KEYS[kind](who, book, chapter)).catch(() => undefined);
}

/** The copy kept for the member signed in, if any. */
export async function keptCopy<K extends keyof Kinds>(
  kind: K,
  book: string,
  chapter: number,
): Promise<Kinds[K] | undefined> {
  const who = member();
  if (who === null || !offlineSupported()) return undefined;
  return get<Kinds[K]>('state', KEYS[kind](who, book, chapter)).catch(() => undefined);
}

/** The words and phrase cards saved on this device and not yet sent: phrase, term ('' for a phrase card). */
export async function queuedWords(): Promise<Array<{ phraseId: number; term: string; phrase: boolean }>> {
  if (!offlineSupported()) return [];
  const actions = await pendingActions('word').catch(() => []);
  return actions.map(({ body }) => {
    const saved = body as { phrase_id: number; term?: string; kind?: string };
    return { phraseId: saved.phrase_id, term: saved.term ?? '', phrase: saved.kind === 'phrase' };
  });
}

/** The largest page the words call gives; a chapter's saved words rarely need a second one. */
const PAGE = 200;

/** Every card the member saved from a chapter (words and phrase cards), page by page. */
export async function chapterWords(
  book: string,
  chapter: number,
  signal?: AbortSignal,
): Promise<WordResponse[]> {
  const words: WordResponse[] = [];
  for (let page = 1; ; page++) {
    const query = `book_code=${encodeURIComponent(book)}&chapter_no=${chapter}&per_page=${PAGE}&page=${page}`;
    const answer = await api<{ data: WordResponse[]; meta: { total: number } }>(`user/words?${query}`, {
      signal,
    });
    words.push(...answer.data);
    if (page * PAGE >= answer.meta.total) return words;
  }
}

/** At download time: keeps a chapter's marks, phrase cards and saved words for `who`. */
export async function keepChapterMarks(
  who: number,
  book: string,
  chapter: number,
  signal?: AbortSignal,
): Promise<void> {
  const query = `book_code=${encodeURIComponent(book)}&chapter_no=${chapter}`;
  const [marks, words] = await Promise.all([
    api<{ data: KeptMarks['marks'] }>(`user/marks?${query}`, { signal }),
    chapterWords(book, chapter, signal),
  ]);
  await keepCopy(
    'marks',
    book,
    chapter,
    {
      marks: marks.data.map(({ phrase_id, mark }) => ({ phrase_id, mark })),
      cards: words.filter((w) => w.kind === 'phrase').map(({ id, phrase_id }) => ({ id, phrase_id })),
    },
    who,
  );
  await keepCopy('words', book, chapter, wordsOf(words), who);
}

/** The glossary entries among a chapter's cards, as kept. */
export function wordsOf(cards: WordResponse[]): KeptWords {
  return cards.filter((w) => w.kind !== 'phrase').map(({ id, phrase_id, term }) => ({ id, phrase_id, term }));
}
