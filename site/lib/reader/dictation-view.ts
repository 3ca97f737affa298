/**
 * What dictation draws (dictation.ts): the form under the current phrase, with the accent bar for the
 * book's language, and a phrase's outcome, word by word. Each word's status is written out, not only
 * coloured (WCAG 1.4.1); a misspelt word marks the letters that differ, from the comparison's `diff`.
 */
import type { DictationResult, DictationWord } from '../../../server/learning/practice/dictation-compare';

/** Letters a keyboard of another country may lack, per language (the book's `data-lang`). */
const ACCENTS: Record<string, string> = {
  fr: 'é è ê ë à â î ï ô û ù ü ÿ ç œ æ',
  es: 'á é í ó ú ü ñ ¿ ¡',
  de: 'ä ö ü ß',
  it: 'à è é ì ò ù',
  pt: 'á â ã à ç é ê í ó ô õ ú',
  nl: 'é ë ï ó ö ü',
  ca: 'à è é í ï ò ó ú ü ç',
  sv: 'å ä ö',
  da: 'æ ø å',
  nb: 'æ ø å',
  no: 'æ ø å',
  fi: 'ä ö å',
  pl: 'ą ć ę ł ń ó ś ź ż',
  cs: 'á č ď é ě í ň ó ř š ť ú ů ý ž',
  ro: 'ă â î ș ț',
  tr: 'ç ğ ı ö ş ü',
};

const STATUS: Record<DictationWord['status'], string> = {
  correct: 'correct',
  missing: 'missing',
  extra: 'extra',
  misspelt: 'misspelt',
  accent: 'accent',
};

const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = '') =>
  Object.assign(document.createElement(tag), { className, textContent: text });

/** The form: label, field, accent bar, Replay, Slower, Check, and how the keys work. */
export function dictationForm(lang: string): HTMLFormElement {
  const form = make('form', 'dictation-form');
  form.dataset.practice = '';
  form.noValidate = true;
  const label = make('label', '', 'Type what you hear');
  label.htmlFor = 'dictation-text';
  const input = Object.assign(make('input'), {
    id: 'dictation-text',
    type: 'text',
    autocomplete: 'off',
    spellcheck: false,
    lang,
  });
  for (const [name, value] of [
    ['autocapitalize', 'off'],
    ['autocorrect', 'off'],
    ['enterkeyhint', 'done'],
    ['aria-describedby', 'dictation-hint'],
  ])
    input.setAttribute(name, value);
  form.append(label, input);
  const letters = ACCENTS[lang.split('-')[0].toLowerCase()];
  if (letters) {
    const bar = make('div', 'accent-bar');
    bar.setAttribute('role', 'group');
    bar.setAttribute('aria-label', 'Letters with accents');
    for (const letter of letters.split(' ')) {
      const button = Object.assign(make('button', '', letter), { type: 'button' });
      button.dataset.insert = letter;
      button.setAttribute('aria-label', `Type ${letter}`);
      bar.append(button);
    }
    form.append(bar);
  }
  const actions = make('div', 'dictation-actions');
  const button = (text: string, action: string) => {
    const b = Object.assign(make('button', 'text-button', text), { type: 'button' });
    b.dataset.dictation = action;
    return b;
  };
  actions.append(
    button('Replay', 'replay'),
    button('Slower (0.75×)', 'slower'),
    Object.assign(make('button', 'button', 'Check'), { type: 'submit' }),
  );
  const hint = make(
    'p',
    'setting-hint',
    'Enter checks, and Enter again goes to the next phrase. Tab replays the phrase; Tab again moves on.',
  );
  hint.id = 'dictation-hint';
  form.append(actions, hint);
  return form;
}

/** Types a letter where the cursor is (replacing a selection), and keeps the cursor after it. */
export function insertAtCursor(input: HTMLInputElement, text: string): void {
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  input.setRangeText(text, start, end, 'end');
  input.focus();
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** A misspelt or accent-slipped word: letters missed marked, letters typed in excess struck. */
function diffed(word: DictationWord): HTMLElement {
  const span = make('span', 'word');
  span.setAttribute('aria-hidden', 'true');
  if (!word.diff) {
    span.textContent = word.expected ?? word.typed ?? '';
    return span;
  }
  for (const [op, letters] of word.diff)
    span.append(
      op === '='
        ? letters
        : make(op === '-' ? 'mark' : 's', `diff-${op === '-' ? 'missed' : 'typed'}`, letters),
    );
  return span;
}

function wordItem(word: DictationWord): HTMLLIElement {
  const li = make('li', `w-${word.status}`);
  const status = STATUS[word.status];
  if (word.status === 'correct') {
    li.textContent = word.expected ?? '';
    return li;
  }
  if (word.status === 'missing' || word.status === 'extra') {
    const text = (word.status === 'missing' ? word.expected : word.typed) ?? '';
    li.append(make('span', 'word', text), make('span', 'tag', status));
    return li;
  }
  // Misspelt or accent: the diff for the eye, the words themselves for a screen reader.
  li.append(
    diffed(word),
    make('span', 'tag', `${status}: you typed “${word.typed ?? ''}”`),
    make('span', 'visually-hidden', `, the phrase says “${word.expected ?? ''}”`),
  );
  return li;
}

/** One phrase's outcome, kept under it: its score and its words. */
export function showOutcome(li: HTMLLIElement, result: DictationResult, kept: boolean): void {
  li.querySelector('.dictation-outcome')?.remove();
  const outcome = make('div', 'dictation-outcome');
  outcome.dataset.practice = '';
  outcome.append(make('p', 'dictation-score', `Score: ${result.score}%${kept ? '' : ' (not kept)'}`));
  const list = make('ol', 'dictation-words');
  list.setAttribute('aria-label', 'Your words');
  list.append(...result.words.map(wordItem));
  outcome.append(list);
  // Right under the form while it is there, so the answer is read next to what was typed.
  (li.querySelector('.dictation-form') ?? li.querySelector('.phrase'))?.after(outcome);
}

/** The words that went wrong, said in one sentence for the live region. */
export function outcomeSentence(result: DictationResult): string {
  const counts = new Map<string, number>();
  for (const word of result.words)
    if (word.status !== 'correct') counts.set(word.status, (counts.get(word.status) ?? 0) + 1);
  const slips = [...counts].map(([status, n]) => `${n} ${STATUS[status as DictationWord['status']]}`);
  return `Score ${result.score}%. ${slips.length ? slips.join(', ') : 'Every word right'}.`;
}
