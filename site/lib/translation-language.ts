/**
 * The languages a learner reads, best first (docs/practice.md, "Translations"): a member's "I speak"
 * (`speaks` in user/profile), kept in sessionStorage for the visit so each page does not ask again;
 * otherwise, or when they chose none, the browser's own languages. The reader, dictation, review and
 * /words all pick a phrase's translation with these and the one rule, `chooseTranslation`
 * (server/platform/common/translation-choice.ts), so a phrase reads the same on each page.
 */
import { api } from './api';
import { canonicalTag, withFallbacks } from '../../server/platform/common/language-tags';
import { keptSpeaks } from './offline/kept-speaks';
import { getToken, getUser } from './session';

export { chooseTranslation, type ChosenTranslation } from '../../server/platform/common/translation-choice';

/** What the chapter API takes at most (`?translations=`). */
const MAX_TAGS = 10;

const storageKey = (member: number) => `speaks:${member}`;

async function memberSpeaks(): Promise<string[]> {
  const user = getUser();
  if (!getToken() || !user) return [];
  try {
    const kept = sessionStorage.getItem(storageKey(user.id));
    if (kept !== null) return JSON.parse(kept) as string[];
  } catch {
    // Storage blocked: ask the server every time.
  }
  try {
    const { data } = await api<{ data: { speaks?: string[] | null } }>('user/profile');
    const speaks = Array.isArray(data.speaks) ? data.speaks : [];
    try {
      sessionStorage.setItem(storageKey(user.id), JSON.stringify(speaks));
    } catch {
      // Not kept: asked again on the next chapter.
    }
    return speaks;
  } catch {
    // Offline: the "I speak" kept by the member's last download, whose translations are on the device.
    return keptSpeaks(user.id);
  }
}

/** After the member changes "I speak" (the profile page): the next chapter asks the server again. */
export function forgetLearnerLanguages(member: number): void {
  try {
    sessionStorage.removeItem(storageKey(member));
  } catch {
    // Storage blocked: nothing was kept.
  }
}

/**
 * The tags to ask for, best first (`withFallbacks`): each tag the server accepts (the same
 * `canonicalTag`, so one odd browser tag cannot turn the answer into a 422), then its bare language when
 * it has a region or script ("en-GB", then "en"). The book's own language is left out (nobody needs a
 * French phrase translated into French), even when it is the learner's first; pages of many books (review,
 * /words) leave `bookLanguage` out and let `chooseTranslation` drop each card's.
 */
export async function learnerLanguages(bookLanguage?: string | null): Promise<string[]> {
  const chosen = await memberSpeaks();
  const raw = chosen.length > 0 ? chosen : [...(navigator.languages ?? [navigator.language])];
  const tags = raw.map(canonicalTag).filter((tag): tag is string => tag !== null);
  // Not cut here: review and /words choose among all of them, as the reader does (chooseTranslation).
  return withFallbacks(tags, bookLanguage || null);
}

/** The most tags an API request takes (the server answers 422 beyond): the learner's first ones. */
export const requestTags = (tags: string[]): string[] => tags.slice(0, MAX_TAGS);

/**
 * What the reader asks a chapter for: the learner's tags the chapter has, at most MAX_TAGS, sorted with
 * plain commas: the very key the page cache keeps the answer under (server/http/query-rules.ts), so the
 * reader and the offline copy (offline/translations.ts) ask, and keep, the same answer.
 */
export function askedTags(tags: string[], offered: Iterable<string>): string[] {
  const has = new Set(offered);
  return requestTags(tags.filter((tag) => has.has(tag))).sort();
}
