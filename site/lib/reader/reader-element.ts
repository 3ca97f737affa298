/**
 * <reader-app>: the reader's player, as a custom element (no framework: the page ships a few KB of
 * script, and the phrases are plain server-rendered HTML that works without it). Each phrase has its own
 * clip, so "where does this phrase start" is never a guess: tapping plays exactly that phrase, and play
 * all moves clip to clip, the next one preloaded.
 */
import type { ReaderChapter } from '../../../server/learning/reading/reading.dto';
import { ApiError } from '../api';
import { getToken } from '../session';
import { fetchChapter, loadLocked, refreshAudio } from './chapter-source';
import { itemOf, phraseItem, showChapter, type Item } from './chapter-view';
import { ClipPlayer } from './clip-player';
import { GlossaryMarks } from './glossary-marks';
import { reportHeard } from './listening-reports';
import { showOnMediaSession, wireMediaSession } from './media-session';
import { PlayerBar } from './player-bar';
import { Practice, type ReaderHost } from './practice';
import { actOnKey, focusPhrase, isReaderKey } from './reader-keys';
import { openingPlace, rememberedSpeed, rememberSpeed, savePlace } from './reading-progress';
import { SettingsSheet } from './settings-sheet';
import type { WordMarks } from './word-marks';
import { WordTaps } from './word-taps';

const SPEEDS = [0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.4, 1.5];

class ReaderApp extends HTMLElement implements ReaderHost {
  readonly player = new ClipPlayer();
  private items: Item[] = [];
  private index = -1;
  private playingAll = false;
  private loop = 1;
  private loopsLeft = 1;
  private shadow = 0;
  private speed = 1;
  private pauseTimer: ReturnType<typeof setTimeout> | undefined;
  private retried = false;
  /** Counts the learner's stops: a clip refused and fetched again plays only if none came meanwhile. */
  private stops = 0;
  private marks: GlossaryMarks | undefined;
  private bar!: PlayerBar;
  private sheet!: SettingsSheet;
  private practice!: Practice;
  private words!: WordTaps;
  private statuses: WordMarks | undefined;
  /** Dictation takes one phrase at a time: play all stops after each (dictation.ts). */
  holdAfterPhrase = false;

  /** The practice modes' view of the reader (site/lib/reader/practice.ts). */
  get phrases(): readonly Item[] {
    return this.items;
  }
  get current(): number {
    return this.index;
  }
  get glossary(): GlossaryMarks | undefined {
    return this.marks;
  }
  get wordMarks(): WordMarks | undefined {
    return this.statuses;
  }

  get book(): string {
    return this.dataset.book ?? '';
  }
  get chapterNo(): number {
    return Number(this.dataset.chapter);
  }
  private get free(): boolean {
    return this.dataset.free === 'true';
  }
  private el<T extends Element>(selector: string): T {
    return this.querySelector(selector) as T;
  }

  connectedCallback(): void {
    this.items = [...this.querySelectorAll<HTMLLIElement>('[data-phrases] li')].map(itemOf);
    this.bar = new PlayerBar(this.el('.player-bar'));
    this.sheet = new SettingsSheet(this.el('[data-settings]'), this.bar.button('settings'), {
      speed: (speed) => this.setSpeed(speed),
      loop: (plays) => {
        // The current phrase takes the new count too, in play all as after a tap.
        this.loop = this.loopsLeft = plays;
        this.showModes();
      },
      shadow: (factor) => {
        this.shadow = factor;
        this.showModes();
      },
      hide: () => this.toggleHidden(),
      revealAll: () => this.items.forEach((item) => item.li.classList.add('revealed')),
    });
    this.classList.add('ready');
    this.player.onEnded = () => this.ended();
    this.player.onFailed = (wanted) => void this.refreshClips(wanted);
    this.wire();
    this.setSpeed(rememberedSpeed(this.book)?.speed ?? 1, false);
    this.marks = new GlossaryMarks(this.el('[data-phrases]'), (message) => this.announce(message));
    this.showItems();
    this.practice = new Practice(this);
    this.words = new WordTaps(this, this.el('[data-phrases]'));
    void this.start();
  }

  private async start(): Promise<void> {
    if (!this.free && !(await loadLocked(this, (chapter) => this.render(chapter)))) return;
    void this.marks?.show(this.book, this.chapterNo);
    // A member's word statuses: their code comes only for members (visitors see no marks).
    if (getToken())
      void import('./word-marks')
        .then(async ({ WordMarks }) => {
          this.statuses = new WordMarks(this, this.el('[data-phrases]'));
          await this.statuses.show();
        })
        .catch(() => undefined);
    const { position, speed } = await openingPlace(this);
    if (speed) this.setSpeed(speed, false);
    // Unless the reader has chosen a phrase while the place was on its way. Opening at a place is not a
    // move: it is not saved again (with a new time, it could replace a newer place, docs/offline.md).
    if (this.index < 0 && position >= 1 && position <= this.items.length)
      this.select(position - 1, true, { save: false });
    this.warmUp();
    this.practice.start();
  }

  /**
   * The first tap plays at once: the clip it will ask for (the current phrase's, or the first one's) is
   * loaded ahead, and the one after it too.
   */
  private warmUp(): void {
    const at = Math.max(this.index, 0);
    this.player.prime(this.items[at]?.audio);
    this.player.preload(this.items[at + 1]?.audio);
  }

  /** The bar follows the phrases on the page: its controls wait until there is something to play. */
  private showItems(): void {
    this.bar.enable(this.items.length > 0);
    this.bar.showPosition(this.items[this.index]?.position ?? null, this.items.length);
  }

  private render(chapter: ReaderChapter): void {
    const list = this.el<HTMLOListElement>('[data-phrases]');
    list.replaceChildren(...chapter.phrases.map(phraseItem));
    this.items = [...list.querySelectorAll<HTMLLIElement>('li')].map(itemOf);
    this.index = -1;
    this.showItems();
    Object.assign(this.dataset, {
      chapter: String(chapter.chapter_no),
      chapterTitle: chapter.title,
      free: String(chapter.free),
      next: chapter.next ?? '',
      prev: chapter.prev ?? '',
      translations: chapter.translation_languages.join(','),
    });
  }

  private wire(): void {
    this.bar.on('play', () => this.togglePlay());
    this.bar.on('prev', () => this.step(-1));
    this.bar.on('next', () => this.step(1));
    this.bar.on('repeat', () => this.repeat());
    this.bar.on('words', () => this.words.listCurrent());
    this.el<HTMLOListElement>('[data-phrases]').addEventListener('click', (event) => {
      // The glossary's Save toggles and the practice controls are controls of their own.
      if ((event.target as Element).closest('.save-word, [data-practice]')) return;
      const li = (event.target as Element).closest('li');
      const i = this.items.findIndex((item) => item.li === li);
      if (i === -1) return;
      // A tap on a word of a shown phrase opens its lookup; anywhere else on the phrase plays it.
      if (this.words.tapped(event, i)) return;
      li?.classList.add('revealed');
      this.playAt(i);
    });
    document.addEventListener('keydown', (event) => this.key(event));
    wireMediaSession({
      play: () => this.togglePlay(true),
      pause: () => this.togglePlay(false),
      previous: () => this.step(-1),
      next: () => this.step(1),
    });
  }

  private key(event: KeyboardEvent): void {
    // The settings sheet is modal: the phrases behind it stay as they are.
    if (!isReaderKey(event, this) || this.sheet.isOpen || this.items.length === 0) return;
    actOnKey(event, {
      ' ': () => this.togglePlay(),
      ArrowRight: () => this.focusCurrent(1),
      ArrowLeft: () => this.focusCurrent(-1),
      r: () => this.repeat(),
      R: () => this.repeat(),
      '[': () => this.nudgeSpeed(-1),
      ']': () => this.nudgeSpeed(1),
      ...this.words.keys(),
      ...this.practice.keys(),
    });
  }

  private setSpeed(speed: number, save = true): void {
    this.speed = Math.min(1.5, Math.max(0.5, Math.round(speed * 10) / 10));
    this.player.setSpeed(this.speed);
    this.sheet.showSpeed(this.speed);
    this.showModes();
    if (!save) return;
    rememberSpeed(this.book, this.speed);
    if (this.index >= 0) this.savePlace();
    this.announce(`Speed ${this.speed}×`);
  }

  private nudgeSpeed(direction: number): void {
    const at = SPEEDS.indexOf(this.speed);
    this.setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, (at === -1 ? 5 : at) + direction))]);
  }

  private showModes(): void {
    this.bar.showModes({ speed: this.speed, loop: this.loop, shadow: this.shadow });
  }

  /** Anything under way: play all, a clip (tapped or not), a loop, a shadowing pause. */
  private get sounding(): boolean {
    return this.playingAll || this.player.playing || this.pauseTimer !== undefined;
  }

  /**
   * The one play/pause button, Play all. Pressed whenever anything sounds (play all, or a phrase tapped
   * alone, its loop or its shadowing pause), and then one press stops it all. Not pressed, it plays all
   * from the current phrase. The media keys' play, while a tapped phrase sounds, turns it into play all.
   */
  private togglePlay(play = !this.sounding): void {
    if (!play) return this.stop();
    if (this.items.length === 0) return;
    this.playingAll = true;
    this.showSounding();
    if (this.index < 0) return this.playAt(0);
    if (this.player.playing || this.pauseTimer !== undefined) return;
    this.playAt(this.index);
  }

  stop(): void {
    this.stops++;
    this.clearPause();
    this.playingAll = false;
    this.player.pause();
    this.showSounding();
  }

  private showSounding(): void {
    this.bar.showPlaying(this.sounding);
  }

  private clearPause(): void {
    clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
  }

  private step(direction: number): void {
    const i = this.index + direction;
    if (i >= 0 && i < this.items.length) this.playAt(i);
  }

  /** ← and →: a step, and the focus follows the current phrase (reader-keys.ts). */
  private focusCurrent(direction: number): void {
    this.step(direction);
    const li = this.items[this.index]?.li;
    if (li) focusPhrase(li);
  }

  private repeat(): void {
    if (this.index >= 0) this.playAt(this.index);
  }

  private toggleHidden(): void {
    const list = this.el<HTMLOListElement>('[data-phrases]');
    const hidden = list.classList.toggle('hide-text');
    if (!hidden) this.items.forEach((item) => item.li.classList.remove('revealed'));
    this.sheet.showHidden(hidden);
  }

  playAt(i: number, rate?: number): void {
    const item = this.items[i];
    if (!item) return;
    this.clearPause();
    this.loopsLeft = this.loop;
    this.select(i, false);
    // Refused by the autoplay rule, the clip is silent: the button says so once the answer is in.
    void this.player.play(item.audio, rate).then(() => this.showSounding());
    this.showSounding();
  }

  private select(i: number, scroll: boolean, { save = true } = {}): void {
    this.items[this.index]?.li.classList.remove('current');
    this.items[this.index]?.li.removeAttribute('aria-current');
    this.index = i;
    const item = this.items[i];
    item.li.classList.add('current');
    item.li.setAttribute('aria-current', 'true');
    // Into the space the bar leaves: the root's scroll-padding keeps its room (site/styles/reader/page.css).
    const smooth = !scroll && !matchMedia('(prefers-reduced-motion: reduce)').matches;
    item.li.scrollIntoView({ block: 'nearest', behavior: smooth ? 'smooth' : 'auto' });
    this.bar.showPosition(item.position, this.items.length);
    this.player.preload(this.items[i + 1]?.audio);
    this.dispatchEvent(new CustomEvent('reader:selected', { detail: i }));
    // Hidden text stays unsaid: hide text's until revealed, dictation's until checked (dictation.ts).
    const list = this.el('[data-phrases]').classList;
    const hidden =
      (list.contains('hide-text') && !item.li.classList.contains('revealed')) ||
      (list.contains('dictation') && !item.li.classList.contains('dictated'));
    this.announce(`Phrase ${item.position} of ${this.items.length}${hidden ? '' : `: ${item.text}`}`);
    if (save) this.savePlace();
    showOnMediaSession({
      title: hidden ? `Phrase ${item.position}` : item.text,
      artist: this.dataset.bookTitle,
      album: `Chapter ${this.chapterNo}: ${this.dataset.chapterTitle}`,
    });
  }

  private savePlace(): void {
    const position = this.items[this.index]?.position ?? 1;
    // A visitor's place is kept for the free chapter only; the server keeps a member's anywhere.
    if (!getToken() && !this.free) return;
    savePlace(this.book, { chapter_no: this.chapterNo, position, speed: this.speed });
  }

  private ended(): void {
    const item = this.items[this.index];
    if (!item) return;
    reportHeard(item.id, item.durationMs || this.player.element.duration * 1000);
    if (this.loop === 0 || --this.loopsLeft > 0) return void this.player.play(item.audio);
    this.dispatchEvent(new CustomEvent('reader:ended', { detail: this.index }));
    if (this.holdAfterPhrase) this.playingAll = false;
    const next = () => {
      this.pauseTimer = undefined;
      if (this.playingAll) this.advance();
      else this.showSounding();
    };
    if (this.shadow > 0) {
      // Time to say the phrase aloud: its own length (at this speed), times the chosen factor.
      const length = (item.durationMs || this.player.element.duration * 1000) / this.speed;
      this.pauseTimer = setTimeout(next, length * this.shadow);
    } else next();
  }

  private advance(): void {
    if (this.index + 1 < this.items.length) return this.playAt(this.index + 1);
    void this.nextChapter();
  }

  /** On to the next chapter inside this page: a navigation would lose the browser's leave to autoplay. */
  private async nextChapter(): Promise<void> {
    const next = Number(this.dataset.next);
    if (!next) return this.stop();
    try {
      const chapter = await fetchChapter(this.book, next);
      this.render(chapter);
      showChapter(this, chapter);
      void this.marks?.show(this.book, chapter.chapter_no);
      void this.statuses?.chapterChanged();
      this.dispatchEvent(new CustomEvent('reader:chapter'));
      // Stopped while the chapter was on its way: it is shown, and stays silent.
      if (this.playingAll) this.playAt(0);
    } catch (error) {
      if (!this.playingAll) return;
      this.stop();
      // Offline, with the next chapter not on the device: the chapter ends here (docs/offline.md).
      if (error instanceof ApiError && error.status === 0)
        return this.announce('You are offline, and the next chapter is not on this device.');
      this.announce('The next chapter is part of Premium Plus.');
      location.assign(`/read/${this.book}/${next}`);
    }
  }

  /** A refused clip: its URLs fetched afresh (chapter-source.ts), once a minute at most, and carry on. */
  private async refreshClips(wanted: boolean): Promise<void> {
    if (this.retried) return this.showSounding();
    this.retried = true;
    setTimeout(() => (this.retried = false), 60_000);
    const stops = this.stops;
    try {
      await refreshAudio(this);
      // Play again only what was playing: a clip loaded ahead and refused is loaded again, silently.
      const resume = wanted && this.index >= 0 && stops === this.stops;
      this.player.reset();
      if (resume) void this.player.play(this.items[this.index].audio).then(() => this.showSounding());
      else this.warmUp();
    } catch {
      // Offline, or the session ended: the clip stays silent, and the button says so.
    }
    this.showSounding();
  }

  announce(message: string): void {
    this.el<HTMLElement>('[data-live]').textContent = message;
  }
}

customElements.define('reader-app', ReaderApp);
