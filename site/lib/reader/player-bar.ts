/**
 * The player's bar (site/components/ReaderPlayer.astro): previous, Play all, next, the phrase counter, the
 * chapter's progress line, the current phrase's words (their lookups) and the button that opens the
 * settings sheet. It shows the reader's state; the
 * reader (reader-element.ts) decides what each button does.
 */
import { nounCount } from '../noun-count';

export type BarAction = 'prev' | 'play' | 'next' | 'repeat' | 'words' | 'settings';

export interface ModesShown {
  speed: number;
  /** Plays per phrase: 1 is off, 0 is always. */
  loop: number;
  /** The pause after a phrase, as a multiple of its length; 0 is off. */
  shadow: number;
}

export class PlayerBar {
  constructor(private readonly root: HTMLElement) {}

  button(action: BarAction): HTMLButtonElement {
    return this.root.querySelector<HTMLButtonElement>(`[data-action="${action}"]`)!;
  }

  on(action: BarAction, handler: () => void): void {
    this.button(action).addEventListener('click', handler);
  }

  /** The controls work only when there is something to play: a locked chapter's page has nothing yet. */
  enable(enabled: boolean): void {
    for (const button of this.root.querySelectorAll<HTMLButtonElement>('button[data-action]'))
      button.disabled = !enabled;
  }

  showPlaying(playing: boolean): void {
    this.button('play').setAttribute('aria-pressed', String(playing));
  }

  /** "12 / 48" and the progress line; `position` is null before any phrase is current. */
  showPosition(position: number | null, count: number): void {
    this.part('[data-count-shown]').textContent = count ? `${position ?? '–'} / ${count}` : '';
    this.part('[data-count-spoken]').textContent = !count
      ? ''
      : position
        ? `Phrase ${position} of ${count}`
        : nounCount(count, 'phrase');
    this.part('[data-progress]').style.setProperty(
      '--progress',
      String(count && position ? position / count : 0),
    );
  }

  /** The speed on the settings button, and a mark when loop or shadowing is on. */
  showModes({ speed, loop, shadow }: ModesShown): void {
    this.part('[data-speed-badge]').textContent = `${speed}×`;
    const modes = [
      loop === 0 ? 'loop always' : loop > 1 ? `loop ${loop} times` : '',
      shadow > 0 ? `shadowing pause ×${shadow}` : '',
    ].filter(Boolean);
    const settings = this.button('settings');
    settings.setAttribute('aria-label', ['Player settings', `${speed}×`, ...modes].join(', '));
    settings.toggleAttribute('data-modes-on', modes.length > 0);
  }

  private part(selector: string): HTMLElement {
    return this.root.querySelector<HTMLElement>(selector)!;
  }
}
