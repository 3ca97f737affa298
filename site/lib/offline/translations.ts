/**
 * Translations offline (docs/offline.md, "Practice offline"). The reader asks the chapter API for the
 * learner's languages (site/lib/reader/translations.ts); a download keeps that very answer, under its
 * full address, beside the plain chapter data, and keeps the member's "I speak" on the device, so the
 * reader asks the same address offline and the worker finds it (site/sw/access.ts).
 */
import type { ReaderChapter } from '../../../server/learning/reading/reading.dto';
import { fetchForDevice } from '../api';
import { askedTags, forgetLearnerLanguages, learnerLanguages } from '../translation-language';
import { getToken, getUser } from '../session';
import { chapterDataPath, speaksKey } from './names';
import { put } from './store';

/**
 * The chapter answer the reader will ask for, fetched now: its full address and body, or null when the
 * learner reads none of the chapter's translation languages (the reader then asks nothing either).
 * A member's "I speak" is read fresh from the server and kept, and the reader's copy for this visit is
 * dropped, so that online in this tab and offline in a new one the reader asks exactly this address.
 */
export async function translationsCopy(
  book: string,
  chapter: ReaderChapter,
  signal: AbortSignal,
): Promise<{ url: string; body: string } | null> {
  const user = getUser();
  if (getToken() && user) {
    try {
      const response = await fetchForDevice('/api/v1/user/profile', { signal, withToken: true });
      const { data } = (await response.json()) as { data: { speaks?: string[] | null } };
      await put('state', Array.isArray(data.speaks) ? data.speaks : [], speaksKey(user.id));
      forgetLearnerLanguages(user.id);
    } catch (error) {
      if (signal.aborted) throw error;
      // The languages kept before (if any) stay; the reader asks with what it knows.
    }
  }
  // The reader's own rule (translations.ts): the learner's tags the chapter has, sorted, plain commas.
  const tags = await learnerLanguages(chapter.language ?? '');
  const asked = askedTags(tags, chapter.translation_languages);
  if (asked.length === 0) return null;
  const path = `${chapterDataPath(book, chapter.chapter_no)}?translations=${asked.join(',')}`;
  const response = await fetchForDevice(path, { signal, withToken: true });
  const body = await response.text();
  // Kept in the cache the chapter's data chose: only while the chapter is still what it was then (a free
  // chapter that became locked meanwhile must not put a member's answer in the shared cache), and only
  // for the member the download began for.
  const answer = (JSON.parse(body) as { data: Pick<ReaderChapter, 'free'> }).data;
  if (answer.free !== chapter.free || getUser()?.id !== user?.id) return null;
  return { url: location.origin + path, body };
}
