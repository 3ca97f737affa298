/**
 * The card on /review (docs/practice.md, "Review"). A word shows its term on the front; the back adds the
 * meaning and the phrase with the term marked. A phrase card is listening first: the front has no text,
 * only the clip (Play, then Replay, key P); the back shows the phrase, its translation in the learner's
 * language (the reader's rule, use-translation.ts) and its glossary. Both kinds take the same four answers.
 */
import type { RefObject } from 'react';
import type { ReviewCard } from '../../../server/learning/words/review.dto';
import { isPhraseCard } from '../../lib/cards';
import { languageName } from '../../lib/languages';
import { bookLanguage } from './book-language';
import { HighlightedPhrase } from './HighlightedPhrase';
import { useTranslation } from './use-translation';
import { meaningSource } from '../../lib/meaning-source';

export const RATINGS = [
  { rating: 1, key: 'again', label: 'Again' },
  { rating: 2, key: 'hard', label: 'Hard' },
  { rating: 3, key: 'good', label: 'Good' },
  { rating: 4, key: 'easy', label: 'Easy' },
] as const;

interface Props {
  card: ReviewCard;
  revealed: boolean;
  busy: boolean;
  /** Whether the clip has played since the card came up (a phrase card's button then says Replay). */
  played: boolean;
  audio: RefObject<HTMLAudioElement | null>;
  onPlay: () => void;
  onReveal: () => void;
  onAnswer: (rating: number) => void;
}

export function ReviewCardView({ card, revealed, busy, played, audio, onPlay, onReveal, onAnswer }: Props) {
  const phrase = isPhraseCard(card);
  return (
    <section className={`review-card${phrase ? ' review-phrase-card' : ''}`} aria-labelledby="review-term">
      <h2 id="review-term" className="review-term" lang={phrase ? undefined : bookLanguage(card)}>
        {phrase ? 'Phrase card' : card.term}
      </h2>
      <p className="review-source">
        {card.book_title}, chapter {card.chapter_no}
        {phrase && !revealed && ' · Listen first: the text comes with the answer.'}
      </p>
      {card.audio ? (
        <>
          <audio ref={audio} src={card.audio} preload="auto" data-review-audio />
          <button type="button" onClick={onPlay} aria-keyshortcuts="P">
            {phrase && played ? 'Replay' : 'Play'} the phrase <kbd>P</kbd>
          </button>
        </>
      ) : (
        <p className="muted">This clip is part of Premium Plus.</p>
      )}
      {revealed ? (
        <div className="review-back">
          {phrase ? <PhraseBack card={card} /> : <WordBack card={card} />}
          <div className="review-answers" role="group" aria-label="How well did you know it?">
            {RATINGS.map(({ rating, key, label }) => (
              <button type="button" key={key} disabled={busy} onClick={() => onAnswer(rating)}>
                <span>{label}</span> <small>{card.next[key].label}</small> <kbd>{rating}</kbd>
              </button>
            ))}
          </div>
        </div>
      ) : (
        <button type="button" className="button" onClick={onReveal} aria-keyshortcuts="Space">
          Show answer <kbd>Space</kbd>
        </button>
      )}
    </section>
  );
}

function WordBack({ card }: { card: ReviewCard }) {
  return (
    <>
      <p className="review-meaning">{card.meaning}</p>
      {meaningSource(card) && <p className="word-source">{meaningSource(card)}</p>}
      <p className="review-phrase" lang={bookLanguage(card)}>
        <HighlightedPhrase phrase={card.phrase} term={card.term} />
      </p>
    </>
  );
}

function PhraseBack({ card }: { card: ReviewCard }) {
  // Cards kept on a device before phrase cards existed carry neither.
  const translation = useTranslation(card);
  const glossary = card.glossary ?? [];
  return (
    <>
      <p className="review-phrase review-phrase-text" lang={bookLanguage(card)}>
        {card.phrase}
      </p>
      {translation ? (
        <p className="review-translation">
          <span className="review-label">Translation ({languageName(translation.language)})</span>{' '}
          <span lang={translation.language}>{translation.text}</span>
        </p>
      ) : (
        translation === null && (
          <p className="muted">
            No translation in the languages you speak (<a href="/profile">“I speak” on your profile</a>).
          </p>
        )
      )}
      {glossary.length > 0 && (
        <>
          <h3 className="review-glossary-heading">Glossary</h3>
          <dl className="review-glossary">
            {glossary.map((entry, i) => (
              <div key={`${entry.term}-${i}`}>
                <dt lang={bookLanguage(card)}>{entry.term}</dt>
                {entry.meaning && <dd>{entry.meaning}</dd>}
              </div>
            ))}
          </dl>
        </>
      )}
    </>
  );
}
