/**
 * The reader's practice modes (docs/practice.md, "The reader"): translations, dictation, recording one's
 * own voice in shadowing, and phrase marks. This file only wires them to the reader and its settings
 * sheet; each mode is its own module, fetched with import() when it is first needed, so the page's first
 * paint carries none of them.
 */
import type { Item } from './chapter-view';
import type { ClipPlayer } from './clip-player';
import type { GlossaryMarks } from './glossary-marks';
import type { WordMarks } from './word-marks';

/** What the modes see of <reader-app> (reader-element.ts). */
export interface ReaderHost extends HTMLElement {
  readonly player: ClipPlayer;
  readonly phrases: readonly Item[];
  /** The current phrase's index, -1 before any. */
  readonly current: number;
  readonly book: string;
  readonly chapterNo: number;
  holdAfterPhrase: boolean;
  /** The glossary's Save toggles, which the word lookup's Save for a glossary entry goes through. */
  readonly glossary: GlossaryMarks | undefined;
  /** The member's word statuses, which the word lookup's "I know this word" goes through. */
  readonly wordMarks: WordMarks | undefined;
  playAt(i: number, rate?: number): void;
  stop(): void;
  announce(message: string): void;
}

/** A mode the practice wiring can ask for keys. */
export interface KeyOwner {
  keys(): Record<string, () => void>;
}

type Lazy<T> = Promise<T> | undefined;

export class Practice {
  private translations: Lazy<KeyOwner>;
  private marks: Lazy<KeyOwner>;
  private dictation: Lazy<{ setOn(on: boolean): void }>;
  private recorder: Lazy<{ setOn(on: boolean): void }>;
  /** What the keys act on, once each module has come: keys() must answer at once. */
  private loaded: KeyOwner[] = [];

  constructor(private readonly reader: ReaderHost) {
    const sheet = reader.querySelector<HTMLDialogElement>('[data-settings]')!;
    for (const name of ['mode', 'shadow'])
      sheet.querySelector(`[data-control="${name}"]`)?.addEventListener('change', () => this.apply());
  }

  /** Once the phrases are on the page: the marks and the translations (both fetch the member's own data). */
  start(): void {
    if (this.reader.phrases.length === 0) return;
    // Not loaded (offline, a new release): the reader goes on without them, and the next chapter tries again.
    this.translations ??= this.keep(import('./translations').then((m) => new m.Translations(this.reader)));
    this.translations.catch(() => (this.translations = undefined));
    this.marks ??= this.keep(import('./phrase-marks').then((m) => new m.PhraseMarks(this.reader)));
    this.marks.catch(() => (this.marks = undefined));
  }

  /** The modes' keys (T, 1, 2, 3), for the reader's own key handler. */
  keys(): Record<string, () => void> {
    return Object.assign({}, ...this.loaded.map((owner) => owner.keys())) as Record<string, () => void>;
  }

  private keep<T extends KeyOwner>(module: Promise<T>): Promise<T> {
    return module.then((owner) => {
      this.loaded.push(owner);
      return owner;
    });
  }

  /** Changes apply one after the other: each waits for the modules the one before asked for. */
  private applying = Promise.resolve();

  /**
   * The sheet's mode and shadowing, applied: dictation when chosen; the recorder in shadowing, but not
   * while dictating (one panel under the phrase at a time).
   */
  private apply(): void {
    this.applying = this.applying
      .then(async () => {
        const dictation = this.checked('mode') === 'dictation';
        const recording = Number(this.checked('shadow') ?? 0) > 0 && !dictation;
        if (!dictation) (await this.settled('dictation'))?.setOn(false);
        if (!recording) (await this.settled('recorder'))?.setOn(false);
        if (dictation) {
          this.dictation ??= import('./dictation').then((m) => new m.Dictation(this.reader));
          (
            await this.settled(
              'dictation',
              'Dictation could not load. Check your connection, then choose it again.',
            )
          )?.setOn(true);
        }
        if (recording) {
          this.recorder ??= import('./voice-recorder').then((m) => new m.VoiceRecorder(this.reader));
          (
            await this.settled(
              'recorder',
              'Recording your voice could not load. Check your connection, then choose shadowing again.',
            )
          )?.setOn(true);
        }
      })
      // Whatever went wrong, the next change is applied: the chain never stays rejected.
      .catch(() => undefined);
  }

  /**
   * A mode once its module has come; undefined when it was never asked for, or failed to load. A failed
   * import() is forgotten (so that choosing the mode again tries again) and, when asked for, said.
   */
  private async settled(name: 'dictation' | 'recorder', failure?: string) {
    const mode = this[name];
    if (!mode) return undefined;
    try {
      return await mode;
    } catch {
      if (this[name] === mode) this[name] = undefined;
      if (failure) this.reader.announce(failure);
      return undefined;
    }
  }

  private checked(name: 'mode' | 'shadow'): string | undefined {
    return this.reader.querySelector<HTMLInputElement>(`[data-control="${name}"] input:checked`)?.value;
  }
}
