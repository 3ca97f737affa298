/**
 * Plays one phrase's clip at a time, and keeps the next one loaded in a second <audio> element, so that
 * moving on is a swap, not a download: the gap between phrases stays near zero. Before the first tap, the
 * clip it will play waits loaded in the first element (prime), so the first tap sounds as soon as the
 * others do. Clips are plain same-origin URLs (the CSP allows no blob: media).
 */
export class ClipPlayer {
  private current = this.makeAudio();
  private preloaded = this.makeAudio();
  private speed = 1;
  /** Whether sound was asked for and not stopped since: after a refused clip, only then play again. */
  private wanted = false;
  onEnded: () => void = () => undefined;
  onPlaying: () => void = () => undefined;
  /**
   * A clip the server refused (an expired signed URL, say): the page fetches fresh URLs. `wanted` says
   * whether it was to sound; the player itself is silent from then on.
   */
  onFailed: (wanted: boolean) => void = () => undefined;

  private makeAudio(): HTMLAudioElement {
    const audio = new Audio();
    audio.preload = 'auto';
    audio.preservesPitch = true;
    audio.addEventListener('ended', () => {
      if (audio !== this.current) return;
      this.wanted = false;
      this.onEnded();
    });
    audio.addEventListener('playing', () => audio === this.current && this.onPlaying());
    audio.addEventListener('error', () => audio === this.current && this.failed());
    return audio;
  }

  /** The element that plays now (tests listen to its events). */
  get element(): HTMLAudioElement {
    return this.current;
  }

  setSpeed(speed: number): void {
    this.speed = speed;
    for (const audio of [this.current, this.preloaded]) {
      audio.playbackRate = speed;
      audio.defaultPlaybackRate = speed;
    }
  }

  /**
   * Plays `src` from its start; swaps in the preloaded element when it holds that clip already. `rate`
   * plays this once at another speed (dictation's slower replay); the next clip is at the chosen speed.
   */
  play(src: string, rate = this.speed): Promise<void> {
    this.wanted = true;
    // A preload the server refused (an expired signed URL) is not swapped in: it would never play.
    if (this.preloaded.getAttribute('src') === src && !this.preloaded.error) {
      [this.current, this.preloaded] = [this.preloaded, this.current];
      this.preloaded.pause();
    } else if (this.current.getAttribute('src') !== src) {
      this.current.setAttribute('src', src);
    }
    this.current.currentTime = 0;
    this.current.playbackRate = rate;
    return this.current.play().catch((error: unknown) => {
      // Refused by the autoplay rule: silence, as if stopped. Interrupted by a pause or another phrase:
      // nothing to do. Anything else: the clip could not load.
      if (error instanceof DOMException && error.name === 'NotAllowedError') this.wanted = false;
      else if (!(error instanceof DOMException && error.name === 'AbortError')) this.failed();
    });
  }

  private failed(): void {
    const wanted = this.wanted;
    this.wanted = false;
    this.onFailed(wanted);
  }

  preload(src: string | undefined): void {
    if (!src || this.preloaded.getAttribute('src') === src || this.current.getAttribute('src') === src)
      return;
    this.preloaded.setAttribute('src', src);
    this.preloaded.load();
  }

  /**
   * Loads `src` into the element that plays next, while nothing plays: the clip a first tap will ask for.
   * Loading is not playing, so the browser's autoplay rule allows it.
   */
  prime(src: string | undefined): void {
    if (!src || this.wanted || !this.current.paused) return;
    if (this.current.getAttribute('src') === src || this.preloaded.getAttribute('src') === src) return;
    this.current.setAttribute('src', src);
    this.current.load();
  }

  pause(): void {
    this.wanted = false;
    this.current.pause();
  }

  /** Sound was asked for and has neither ended nor been stopped (it may still be loading). */
  get playing(): boolean {
    return this.wanted;
  }

  get paused(): boolean {
    return this.current.paused;
  }

  /** Forgets every loaded clip (their URLs were replaced by fresh ones). */
  reset(): void {
    this.wanted = false;
    for (const audio of [this.current, this.preloaded]) {
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
    }
  }
}
