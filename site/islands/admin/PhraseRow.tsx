/**
 * One row of the Phrase List. Rows are memoised: a move re-renders only the rows whose place changed,
 * which keeps a chapter of hundreds of phrases quick. Each row shows its clip's length and a Play button;
 * the buttons share one audio element (ClipButton.tsx), so nothing loads until a clip is played.
 */
import { memo, type KeyboardEvent } from 'react';
import { adminRoutes, languageName, type Phrase } from '../../lib/admin';
import { Icon } from '../shared/Icon';
import { ClipButton } from './ClipButton';
import type { DragHandlers } from './useRowDrag';

export interface RowActions {
  drag: DragHandlers;
  toggleGrab: (phrase: Phrase, index: number) => void;
  grabKey: (event: KeyboardEvent<HTMLButtonElement>, phrase: Phrase, index: number) => void;
  releaseGrab: (phrase: Phrase) => void;
  moveBy: (phrase: Phrase, index: number, delta: -1 | 1, focusId: string) => void;
  remove: (phrase: Phrase) => void;
}

interface PhraseRowProps {
  phrase: Phrase;
  index: number;
  count: number;
  grabbed: boolean;
  dragging: boolean;
  dropTarget: boolean;
  deleting: boolean;
  actions: RowActions;
}

/** The languages a phrase is translated into, under its text ("Translations: en, de"); nothing without. */
function TranslationLanguages({ translations }: { translations: Record<string, string> | undefined }) {
  const tags = Object.keys(translations ?? {}).sort();
  if (tags.length === 0) return null;
  return (
    <span className="phrase-languages">
      Translations:{' '}
      {tags.map((tag, i) => (
        <span key={tag}>
          {i > 0 && ', '}
          <abbr title={languageName(tag)}>{tag}</abbr>
        </span>
      ))}
    </span>
  );
}

export const handleId = (phrase: Phrase) => `reorder-${phrase.id}`;

export const PhraseRow = memo(function PhraseRow({
  phrase,
  index,
  count,
  grabbed,
  dragging,
  dropTarget,
  deleting,
  actions,
}: PhraseRowProps) {
  const position = index + 1;
  const first = index === 0;
  const last = index === count - 1;
  const classes = [grabbed || dragging ? 'row-moving' : '', dropTarget ? 'row-drop-target' : '']
    .join(' ')
    .trim();
  return (
    <tr data-index={index} className={classes || undefined}>
      <td className="reorder-cell">
        <button
          id={handleId(phrase)}
          type="button"
          className="drag-handle"
          aria-pressed={grabbed}
          aria-describedby="reorder-help"
          onPointerDown={(event) => actions.drag.onPointerDown(event, index)}
          onPointerMove={actions.drag.onPointerMove}
          onPointerUp={actions.drag.onPointerUp}
          onPointerCancel={actions.drag.onPointerCancel}
          onClickCapture={actions.drag.onClickCapture}
          onClick={() => actions.toggleGrab(phrase, index)}
          onKeyDown={(event) => actions.grabKey(event, phrase, index)}
          onBlur={() => actions.releaseGrab(phrase)}
        >
          <Icon name="grip" />
          <span className="visually-hidden">Reorder phrase {position}</span>
        </button>
        <button
          id={`up-${phrase.id}`}
          type="button"
          className="move-button"
          aria-disabled={first || undefined}
          onClick={() => !first && actions.moveBy(phrase, index, -1, `up-${phrase.id}`)}
        >
          <Icon name="up" />
          <span className="visually-hidden">Move phrase {position} up</span>
        </button>
        <button
          id={`down-${phrase.id}`}
          type="button"
          className="move-button"
          aria-disabled={last || undefined}
          onClick={() => !last && actions.moveBy(phrase, index, 1, `down-${phrase.id}`)}
        >
          <Icon name="down" />
          <span className="visually-hidden">Move phrase {position} down</span>
        </button>
      </td>
      <td data-label="No.">{position}</td>
      <th scope="row">
        {phrase.phrase}
        <TranslationLanguages translations={phrase.translations} />
      </th>
      <td data-label="Dictionary" className="multiline">
        {phrase.dictionary}
      </td>
      <td data-label="Audio">
        <ClipButton src={phrase.line_audio} name={`phrase ${position}`} durationMs={phrase.duration_ms} />
      </td>
      <td className="actions-cell">
        <ul className="row-actions">
          <li>
            <a href={adminRoutes.editPhrase(phrase.id)}>
              Edit<span className="visually-hidden"> phrase {position}</span>
            </a>
          </li>
          <li>
            <button
              type="button"
              className="link-button danger"
              disabled={deleting}
              onClick={() => actions.remove(phrase)}
            >
              {deleting ? 'Deleting…' : 'Delete'}
              <span className="visually-hidden"> phrase {position}</span>
            </button>
          </li>
        </ul>
      </td>
    </tr>
  );
});
