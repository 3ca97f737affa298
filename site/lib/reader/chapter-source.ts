/**
 * The chapters the reader fetches itself, where the page could not render them: a locked chapter's
 * phrases (they come with the member's token, site/lib/api.ts), the next chapter when play all moves on
 * inside the page, and fresh clip URLs for a refused clip. A member the chapter is locked for is shown the
 * offer the plan pages would make them instead (docs/payments.md).
 */
import type { SubscriptionSummary } from '../../../server/accounts/billing/billing.dto';
import type { ReaderChapter } from '../../../server/learning/reading/reading.dto';
import { api, ApiError } from '../api';
import { getToken } from '../session';
import type { Item } from './chapter-view';

export async function fetchChapter(book: string, chapterNo: number): Promise<ReaderChapter> {
  return (await api<{ data: ReaderChapter }>(`guest/book/${encodeURIComponent(book)}/chapter/${chapterNo}`))
    .data;
}

/**
 * A locked chapter's phrases, drawn by `render`, with the member's token; a refusal shows the way on.
 * False when the chapter stays locked (a visitor, a member without the plan, a failed fetch).
 */
export async function loadLocked(
  reader: HTMLElement & { readonly book: string; readonly chapterNo: number },
  render: (chapter: ReaderChapter) => void,
): Promise<boolean> {
  if (!getToken()) return false;
  // A member is never asked to sign in, even while the chapter's answer is on its way.
  (reader.querySelector('[data-offer="visitor"]') as HTMLElement).hidden = true;
  try {
    render(await fetchChapter(reader.book, reader.chapterNo));
    reader.querySelector('[data-locked]')?.remove();
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) await showMemberOffer(reader);
    return false;
  }
}

/**
 * A member the chapter is locked for is offered what the plan pages offer them (the server's `offer`):
 * the trial, the plan at its price once the trial was used, or the card to update for a subscription
 * waiting for a payment.
 */
async function showMemberOffer(reader: HTMLElement): Promise<void> {
  const offer = await api<{ data: { subscription?: Pick<SubscriptionSummary, 'offer'> } }>('user/profile')
    .then(({ data }) => data.subscription?.offer ?? 'trial')
    .catch(() => 'trial' as const);
  const shown = (reader.querySelector(`[data-offer="${offer}"]`) ??
    reader.querySelector('[data-offer="trial"]')) as HTMLElement;
  shown.hidden = false;
}

/**
 * Fresh clip URLs for the phrases on the page, after a clip was refused: signed URLs expire after a few
 * hours, and a free chapter's plain URL is refused while the server cannot vouch for it (its API then
 * hands out signed ones).
 */
export async function refreshAudio(reader: {
  readonly book: string;
  readonly chapterNo: number;
  readonly phrases: readonly Item[];
}): Promise<void> {
  const chapter = await fetchChapter(reader.book, reader.chapterNo);
  chapter.phrases.forEach((phrase, i) => reader.phrases[i] && (reader.phrases[i].audio = phrase.audio));
}
