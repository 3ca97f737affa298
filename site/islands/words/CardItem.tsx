/**
 * One card of /words: a saved word (its term, meaning and the phrase with the term marked) or a phrase
 * card (the phrase, and its translation in the learner's language when the book has one), each with its
 * place in the book, when it is next due, Play and Delete.
 */
import type { WordResponse } from '../../../server/learning/words/words.dto';
import { cardName, isPhraseCard } from '../../lib/cards';
import { dueIn } from '../../lib/due-time';
import { meaningSource } from '../../lib/meaning-source';
import { bookLanguage } from './book-language';
import { HighlightedPhrase } from './HighlightedPhrase';
import { useTranslation } from './use-translation';

interface Props {
  word: WordResponse;
  onPlay: (src: string) => void;
  onDelete: (word: WordResponse) => void;
}

export function CardItem({ word, onPlay, onDelete }: Props) {
  const phrase = isPhraseCard(word);
  const name = cardName(word);
  // The reader's rule (use-translation.ts); cards kept from before translations existed have none.
  const translation = useTranslation(word);
  const lang = bookLanguage(word);
  return (
    <li className={phrase ? 'phrase-card' : undefined}>
      {phrase ? (
        <>
          <p className="word-phrase">
            <span className="card-kind">Phrase</span> <strong lang={lang}>{word.phrase}</strong>
          </p>
          {translation && (
            <p className="word-translation" lang={translation.language}>
              {translation.text}
            </p>
          )}
        </>
      ) : (
        <>
          <p className="word-term">
            <strong lang={lang}>{word.term}</strong>{' '}
            <span className="word-meaning" lang="en">
              {word.meaning}
            </span>
          </p>
          {meaningSource(word) && <p className="word-source">{meaningSource(word)}</p>}
          <p className="word-phrase" lang={lang}>
            <HighlightedPhrase phrase={word.phrase} term={word.term} />
          </p>
        </>
      )}
      <p className="word-meta">
        <a href={`/read/${word.book_code}/${word.chapter_no}#p-${word.position}`}>
          {word.book_title}, chapter {word.chapter_no}
        </a>{' '}
        · Due {dueIn(word.due_at)}
      </p>
      <div className="word-actions">
        {word.audio ? (
          <button
            type="button"
            onClick={() => onPlay(word.audio!)}
            aria-label={phrase ? `Play “${name}”` : `Play the phrase of “${name}”`}
          >
            Play
          </button>
        ) : (
          <span className="muted">Clip in Premium Plus</span>
        )}
        <button
          type="button"
          onClick={() => onDelete(word)}
          aria-label={phrase ? `Delete the phrase “${name}”` : `Delete “${name}”`}
        >
          Delete
        </button>
      </div>
    </li>
  );
}
