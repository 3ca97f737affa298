/**
 * Words and phrase cards as /words and /review show them (docs/practice.md, Pages). A card is a saved
 * glossary word (`kind: "word"`) or a whole phrase (`kind: "phrase"`, empty term and meaning); cards
 * kept on a device before phrase cards existed carry no kind, and are words.
 */

/** What the pages need to tell the two kinds apart and to name a card. */
export interface CardLike {
  kind?: 'word' | 'phrase';
  term: string;
  phrase: string;
}

/** The filter of /words: the API's `?kind=`, or both. */
export type KindFilter = 'all' | 'word' | 'phrase';

export const isPhraseCard = (card: { kind?: string }) => card.kind === 'phrase';

/** The start of a long text, cut at a word and ended with "…", for buttons' names and messages. */
export function shorten(text: string, max = 40): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** How a card is named in buttons and messages: the word, or the start of the phrase. */
export const cardName = (card: CardLike) => (isPhraseCard(card) ? shorten(card.phrase) : card.term);

/**
 * The count above the list: "2 words", "1 phrase", "2 words and 1 phrase". `kinds` are those of every
 * card the filter matches when they are all on the page; otherwise (more than one page) only the total is
 * known, and it is named after the filter.
 */
export function cardCount(
  total: number,
  filter: KindFilter,
  kinds?: ReadonlyArray<string | undefined>,
): string {
  const words = (n: number) => `${n} ${n === 1 ? 'word' : 'words'}`;
  const phrases = (n: number) => `${n} ${n === 1 ? 'phrase' : 'phrases'}`;
  if (filter === 'word') return words(total);
  if (filter === 'phrase') return phrases(total);
  if (!kinds || kinds.length !== total) return `${total} words and phrases`;
  const phraseCount = kinds.filter((kind) => kind === 'phrase').length;
  const wordCount = total - phraseCount;
  if (phraseCount === 0) return words(wordCount);
  if (wordCount === 0) return phrases(phraseCount);
  return `${words(wordCount)} and ${phrases(phraseCount)}`;
}
