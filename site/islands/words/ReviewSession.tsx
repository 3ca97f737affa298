/**
 * /review: the member's due and new cards, one at a time. A word's front shows the term; "Show answer"
 * (or Space) reveals the meaning and the phrase it came from, with the term marked, and plays the
 * narrator's clip of that phrase. A phrase card is listening first: its clip plays as it comes up, with no
 * text, and the answer shows the text, its translation and its glossary (ReviewCardView). 1–4 answer,
 * P plays the clip again, U takes back the last answer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReviewCard, ReviewQueue as Queue } from '../../../server/learning/words/review.dto';
import { api, ApiError, errorMessage } from '../../lib/api';
import { offlineReview } from '../../lib/offline/review-cards';
import { sendOrQueue } from '../../lib/offline/queue';
import { getUser } from '../../lib/session';
import { DeviceNotice } from '../shared/DeviceNotice';
import { dueIn } from '../../lib/due-time';
import { signedIn } from '../../lib/guards';
import { syncTimeZone } from '../../lib/time-zone';
import { useGuard } from '../../lib/useGuard';
import { isPhraseCard } from '../../lib/cards';
import { ReviewCardView } from './ReviewCardView';

const guard = signedIn('/review');

/**
 * How a message names a card: a word by its term; a phrase card never by its text, which would reach
 * the page (and the screen reader) while a card's front is listening first, before Show answer.
 */
const named = (card: ReviewCard) => (isPhraseCard(card) ? 'the phrase card' : `“${card.term}”`);

export default function ReviewSession() {
  const access = useGuard(guard);
  const [queue, setQueue] = useState<Queue | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [played, setPlayed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [answered, setAnswered] = useState(0);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** When the cards shown were kept on this device (offline), or null when they come from the server. */
  const [keptAt, setKeptAt] = useState<number | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  /** Whether the last answer waits on the device (offline) rather than being on the server. */
  const lastQueued = useRef(false);
  const card = queue?.cards[0];

  const load = useCallback(async () => {
    try {
      setQueue((await api<{ data: Queue }>('user/review')).data);
      setKeptAt(null);
      setRevealed(false);
      setError(null);
    } catch (failure) {
      // Offline: the cards kept on this device with a downloaded book (docs/offline.md).
      const user = getUser();
      const kept =
        failure instanceof ApiError && failure.status === 0 && user
          ? await offlineReview(user.id).catch(() => null)
          : null;
      if (!kept) return setError(errorMessage(failure));
      setQueue({ cards: kept.cards, due_count: 0, new_count: 0, next_due_at: null });
      setKeptAt(kept.keptAt);
      setRevealed(false);
      setError(null);
    }
  }, []);

  useEffect(() => {
    if (access.status !== 'allowed') return;
    // The day's new cards are counted in the member's days: the time zone is settled first. Not waited
    // for: load() shows its own failure.
    void api<{ data: { time_zone: string | null } }>('user/profile')
      .then(({ data }) => syncTimeZone(data.time_zone))
      .catch(() => undefined)
      .then(load);
  }, [access.status, load]);

  const play = useCallback(() => {
    const element = audio.current;
    if (!element || !card?.audio) return;
    element.currentTime = 0;
    element
      .play()
      .then(() => setPlayed(true))
      .catch(() => setStatus('The clip could not be played.'));
  }, [card]);

  // A phrase card's front is its clip: it plays as the card comes up. A browser that blocks sound before
  // the member has touched the page refuses; the Play button is there for that.
  const cardKey = card ? `${card.id}:${card.version}` : null;
  const phraseFront = !!card && isPhraseCard(card) && !revealed;
  useEffect(() => {
    setPlayed(false);
    if (!cardKey || !phraseFront) return;
    audio.current?.play().then(
      () => setPlayed(true),
      () => undefined,
    );
    // Only a new card starts it, not the answer being shown (phraseFront is read as the card comes up).
  }, [cardKey]);

  const reveal = useCallback(() => {
    if (!card || revealed) return;
    setRevealed(true);
    play();
  }, [card, revealed, play]);

  const answer = useCallback(
    async (rating: number) => {
      if (!card || !revealed || busy) return;
      setBusy(true);
      try {
        // Offline, the answer waits on the device with its time (queue.ts).
        const body = { rating, version: card.version };
        const sent = await sendOrQueue('review', `user/review/${card.id}`, 'POST', body, {
          ...body,
          reviewed_at: new Date().toISOString(),
        });
        lastQueued.current = sent === null;
        setAnswered((n) => n + 1);
        const rest = queue.cards.slice(1);
        setStatus(`Answered ${named(card)}. ${rest.length} left.`);
        // Cards answered Again come back today: an empty local queue asks the server for what is due now.
        if (rest.length) {
          setQueue({ ...queue, cards: rest });
          setRevealed(false);
        } else await load();
      } catch (failure) {
        setStatus(
          failure instanceof ApiError && failure.status === 409 ? failure.message : errorMessage(failure),
        );
        await load();
      } finally {
        setBusy(false);
      }
    },
    [card, revealed, busy, queue, load],
  );

  const undo = useCallback(async () => {
    if (busy || answered === 0) return;
    // An answer waiting on the device cannot be taken back on the server (Undo would take another).
    if (keptAt !== null || lastQueued.current)
      return setStatus('Undo needs a connection: your answers wait on this device.');
    setBusy(true);
    try {
      const { data } = await api<{ data: ReviewCard }>('user/review/undo', { method: 'POST' });
      setQueue((q) => (q ? { ...q, cards: [data, ...q.cards.filter((c) => c.id !== data.id)] } : q));
      setRevealed(false);
      setAnswered((n) => n - 1);
      setStatus(`Undone: ${named(data)} is back.`);
    } catch (failure) {
      setStatus(failure instanceof ApiError ? failure.message : errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }, [busy, answered, keptAt]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.altKey || event.ctrlKey || event.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))
        return;
      // Space on a focused button is that button's own.
      if (event.key === ' ' && target.closest('button, a')) return;
      const actions: Record<string, () => void> = {
        ' ': reveal,
        p: play,
        P: play,
        u: () => void undo(),
        U: () => void undo(),
        '1': () => void answer(1),
        '2': () => void answer(2),
        '3': () => void answer(3),
        '4': () => void answer(4),
      };
      const action = actions[event.key];
      if (!action || event.repeat) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [reveal, play, undo, answer]);

  if (access.status !== 'allowed' || (!queue && !error)) return <p role="status">Loading your review…</p>;
  if (!queue) return <p role="alert">{error}</p>;

  const left = queue.cards.length;
  return (
    <div className="review">
      {keptAt !== null && <DeviceNotice keptAt={keptAt} what="These cards were kept on this device" />}
      <p className="review-count" aria-live="polite">
        {left ? `${left} ${left === 1 ? 'card' : 'cards'} left` : 'Nothing to review now'}
        {answered > 0 && ` · ${answered} answered`}
      </p>
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {card ? (
        <ReviewCardView
          card={card}
          revealed={revealed}
          busy={busy}
          played={played}
          audio={audio}
          onPlay={play}
          onReveal={reveal}
          onAnswer={(rating) => void answer(rating)}
        />
      ) : (
        <p className="review-done">
          {queue.next_due_at
            ? `All done for now. The next card is due ${dueIn(queue.next_due_at)}.`
            : 'You have nothing to review yet. Save words from a book’s glossary, or phrases, while you read.'}{' '}
          <a href="/words">Your words</a>
        </p>
      )}
      {queue.parameters && (
        <p className="review-source" data-parameters={queue.parameters.own ? 'own' : 'default'}>
          {queue.parameters.own && queue.parameters.computed_at
            ? `Scheduled with your own FSRS parameters, computed from your reviews on ${new Date(queue.parameters.computed_at).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })}.`
            : `Scheduled with FSRS’s default parameters. Yours are computed from your own reviews once you have ${queue.parameters.needed} (${queue.parameters.reviews} so far).`}
        </p>
      )}
      <p className="keys">
        Keys: Space shows the answer, 1–4 answer, P plays the phrase, U undoes the last answer.
        {answered > 0 && (
          <>
            {' '}
            <button type="button" className="link-button" onClick={() => void undo()} disabled={busy}>
              Undo the last answer
            </button>
          </>
        )}
      </p>
    </div>
  );
}
