/**
 * Shadowing with one's own voice (docs/practice.md, "The reader"): in shadowing mode, "Record my voice"
 * under the current phrase plays the narrator's clip, then records the learner (getUserMedia and
 * MediaRecorder) for up to twice the clip's length, then plays the narrator and the learner back to back,
 * both waveforms drawn one above the other.
 *
 * Takes never leave the browser: the last one per phrase is kept in memory until the chapter is left,
 * and can be downloaded (a blob: link is a download, not media). The CSP allows no blob: media
 * (docs/security.md), so takes and the narrator's clip play through Web Audio (AudioBufferSourceNode),
 * decoded from their bytes, never through an <audio src="blob:…">. A microphone refused or absent says so,
 * and the rest of shadowing (the pauses) goes on as before.
 *
 * One take at a time, in steps (idle, asking for the microphone, listening to the narrator, recording,
 * playing back): outside idle the button stops the recording or cancels. Each take (and each "Play
 * both") has its own AbortController: leaving shadowing, another phrase played by the reader, a chapter
 * change or leaving the page aborts it, which silences Web Audio and stops the recorder and every track,
 * so the microphone is never left on and nothing plays over what comes next.
 */
import { fetchForDevice } from '../api';
import type { ReaderHost } from './practice';
import { onAppearance } from '../appearance';
import { tokenValue } from '../ui/tokens';
import { drawWaveform } from './waveform';

interface Take {
  url: string;
  type: string;
  buffer: AudioBuffer;
}

/** The longest take, whatever the phrase's length. */
const MAX_TAKE_MS = 30_000;

type State = 'idle' | 'asking' | 'listening' | 'recording' | 'playing';

const aborted = () => new DOMException('The take was cancelled.', 'AbortError');
const stopTracks = (stream: MediaStream) => stream.getTracks().forEach((track) => track.stop());

const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
) => Object.assign(document.createElement(tag), props);

export class VoiceRecorder {
  private readonly panel: HTMLElement;
  private readonly record: HTMLButtonElement;
  private readonly playBoth: HTMLButtonElement;
  private readonly download: HTMLAnchorElement;
  private readonly status: HTMLParagraphElement;
  private readonly figure: HTMLElement;
  private readonly canvases: { narrator: HTMLCanvasElement; you: HTMLCanvasElement };
  private audio: AudioContext | undefined;
  private readonly takes = new Map<number, Take>();
  private readonly narrators = new Map<string, Promise<AudioBuffer>>();
  private recorder: MediaRecorder | undefined;
  private sounding: AudioBufferSourceNode | undefined;
  /** The take or playback under way: aborting it ends it wherever it is. */
  private running: AbortController | undefined;
  private state: State = 'idle';
  private on = false;

  constructor(private readonly reader: ReaderHost) {
    this.panel = element('div', { className: 'voice' });
    this.panel.dataset.practice = '';
    this.record = element('button', { type: 'button', className: 'button', textContent: 'Record my voice' });
    this.playBoth = element('button', { type: 'button', className: 'text-button', textContent: 'Play both' });
    this.download = element('a', { className: 'text-button', textContent: 'Download my take' });
    this.status = element('p', { className: 'voice-status' });
    const canvas = (label: string) => {
      const c = element('canvas', { className: 'waveform' });
      c.setAttribute('role', 'img');
      c.setAttribute('aria-label', label);
      return c;
    };
    this.canvases = { narrator: canvas("The narrator's waveform"), you: canvas('Your waveform') };
    // Drawn in the theme's colours: again when the theme changes.
    onAppearance(() => void this.showTake(), { now: false });
    this.figure = element('figure', { className: 'waveforms' });
    this.figure.append(
      this.canvases.narrator,
      this.canvases.you,
      element('figcaption', { textContent: 'The narrator above, you below.' }),
    );
    const actions = element('div', { className: 'voice-actions' });
    actions.append(this.record, this.playBoth, this.download);
    this.panel.append(
      element('p', {
        className: 'voice-note',
        textContent: 'Your recordings stay in this browser: they are never uploaded.',
      }),
      actions,
      this.status,
      this.figure,
    );
    this.setState('idle');
    this.record.addEventListener('click', () => {
      if (this.state === 'idle') void this.run((signal) => this.take(signal));
      else if (this.state === 'recording') this.recorder?.stop();
      else this.cancel('Cancelled.');
    });
    this.playBoth.addEventListener('click', () => void this.run((signal) => this.playBack(signal)));
    reader.addEventListener('reader:selected', (event) => {
      // The reader plays a clip: whatever this panel was doing stops, so that nothing overlaps.
      this.cancel();
      if (this.on) this.attach((event as CustomEvent<number>).detail);
    });
    reader.addEventListener('reader:chapter', () => this.forget());
    addEventListener('pagehide', () => {
      this.forget();
      void this.audio?.close().catch(() => undefined);
      this.audio = undefined;
    });
    // Back from the back-forward cache: the takes went with the page, and so do their links.
    addEventListener('pageshow', (event) => event.persisted && this.on && void this.showTake());
  }

  setOn(on: boolean): void {
    this.on = on;
    if (!on) {
      this.cancel();
      return this.panel.remove();
    }
    this.attach(Math.max(this.reader.current, 0));
  }

  private get item() {
    return this.reader.phrases.find((item) => item.li === this.panel.parentElement);
  }

  private setState(state: State): void {
    this.state = state;
    this.panel.dataset.state = state;
    this.record.textContent =
      state === 'idle' ? 'Record my voice' : state === 'recording' ? 'Stop recording' : 'Cancel';
    this.playBoth.disabled = state !== 'idle';
  }

  /** Under the current phrase, with that phrase's take when there is one. */
  private attach(index: number): void {
    const item = this.reader.phrases[index];
    if (!item || this.running) return;
    // Moved only when it must be: taking it out of the page would take the focus from its buttons.
    if (this.panel.parentElement === item.li) return;
    this.status.textContent = '';
    item.li.append(this.panel);
    void this.showTake();
  }

  private async showTake(): Promise<void> {
    const item = this.item;
    const take = item && this.takes.get(item.id);
    this.playBoth.hidden = this.download.hidden = this.figure.hidden = !take;
    if (!item || !take) return this.download.removeAttribute('href');
    this.download.href = take.url;
    const extension = /ogg/.test(take.type) ? 'ogg' : /mp4/.test(take.type) ? 'm4a' : 'webm';
    this.download.download = `${this.reader.book}-${this.reader.chapterNo}-phrase-${item.position}.${extension}`;
    const narrator = await this.narrator(item.audio).catch(() => undefined);
    const seconds = Math.max(narrator?.duration ?? 0, take.buffer.duration);
    if (narrator) drawWaveform(this.canvases.narrator, narrator, seconds, tokenValue('--brand'));
    drawWaveform(this.canvases.you, take.buffer, seconds, tokenValue('--focus'));
  }

  private context(): AudioContext {
    if (!this.audio || this.audio.state === 'closed') this.audio = new AudioContext();
    if (this.audio.state === 'suspended') void this.audio.resume();
    return this.audio;
  }

  /** The narrator's clip, decoded from its bytes (the same-origin URL the player uses). */
  private narrator(url: string): Promise<AudioBuffer> {
    let decoded = this.narrators.get(url);
    if (!decoded) {
      decoded = fetchForDevice(url)
        .then((response) => response.arrayBuffer())
        .then((bytes) => this.context().decodeAudioData(bytes));
      decoded.catch(() => this.narrators.delete(url));
      this.narrators.set(url, decoded);
    }
    return decoded;
  }

  private say(message: string): void {
    this.status.textContent = message;
    this.reader.announce(message);
  }

  /** One take or one playback at a time, each with its own AbortController. */
  private async run(step: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.running || !this.item) return;
    const running = new AbortController();
    this.running = running;
    running.signal.addEventListener('abort', () => {
      this.sounding?.stop();
      this.sounding = undefined;
      if (this.recorder?.state === 'recording' || this.recorder?.state === 'paused') this.recorder.stop();
    });
    try {
      await step(running.signal);
    } catch {
      if (!running.signal.aborted)
        this.say('The recording did not work. Try again; shadowing still pauses after each phrase.');
    } finally {
      if (this.running === running) this.running = undefined;
      this.setState('idle');
    }
  }

  /** Ends the take or the playback under way, if any. */
  private cancel(message?: string): void {
    if (!this.running) return;
    this.running.abort();
    this.running = undefined;
    this.setState('idle');
    if (message) this.say(message);
  }

  /** Ask for the microphone, play the narrator, record the learner, then play both. */
  private async take(signal: AbortSignal): Promise<void> {
    const item = this.item!;
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined')
      return this.say(
        'This browser cannot record here (it needs a secure connection). Shadowing still pauses after each phrase.',
      );
    this.reader.stop();
    this.context();
    this.setState('asking');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      if (signal.aborted) return;
      const name = error instanceof DOMException ? error.name : '';
      return this.say(
        name === 'NotFoundError' || name === 'OverconstrainedError'
          ? 'No microphone was found. Shadowing still pauses after each phrase, to repeat aloud.'
          : 'The microphone is off for this site. Allow it in your browser’s settings to record; shadowing still pauses after each phrase.',
      );
    }
    // Cancelled while the browser asked: the microphone it gave goes straight back.
    if (signal.aborted) return stopTracks(stream);
    signal.addEventListener('abort', () => stopTracks(stream));
    try {
      const narrator = await this.narrator(item.audio);
      if (signal.aborted) throw aborted();
      this.setState('listening');
      this.say('Listen to the narrator…');
      await this.play(narrator, signal);
      const blob = await this.capture(stream, narrator.duration, signal);
      stopTracks(stream);
      const buffer = await this.context().decodeAudioData(await blob.arrayBuffer());
      if (signal.aborted) throw aborted();
      const old = this.takes.get(item.id);
      if (old) URL.revokeObjectURL(old.url);
      this.takes.set(item.id, { url: URL.createObjectURL(blob), type: blob.type, buffer });
      await this.showTake();
      await this.playBack(signal);
    } finally {
      stopTracks(stream);
    }
  }

  /** Records until Stop, or twice the phrase's length and a second and a half. */
  private capture(stream: MediaStream, seconds: number, signal: AbortSignal): Promise<Blob> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(aborted());
      const recorder = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      recorder.addEventListener('dataavailable', (event) => {
        if (event.data.size) chunks.push(event.data);
        // How much is recorded so far: the sign, for the journeys, that the microphone is heard.
        this.panel.dataset.chunks = String(chunks.length);
      });
      const limit = setTimeout(
        () => recorder.state !== 'inactive' && recorder.stop(),
        Math.min(MAX_TAKE_MS, seconds * 2000 + 1500),
      );
      const done = () => {
        clearTimeout(limit);
        if (this.recorder === recorder) this.recorder = undefined;
      };
      recorder.addEventListener('stop', () => {
        done();
        if (signal.aborted) reject(aborted());
        else if (chunks.length === 0) reject(new Error('Nothing was recorded.'));
        else resolve(new Blob(chunks, { type: recorder.mimeType || chunks[0].type }));
      });
      recorder.addEventListener('error', () => {
        done();
        reject(new Error('The recorder failed.'));
      });
      try {
        this.panel.dataset.chunks = '0';
        // In slices, so that a take stopped early (or cut short) still holds what was said.
        recorder.start(250);
      } catch (error) {
        done();
        return reject(error instanceof Error ? error : new Error('The recorder failed.'));
      }
      this.recorder = recorder;
      this.setState('recording');
      this.say('Recording: say the phrase now.');
    });
  }

  /** Plays a decoded buffer through Web Audio, to its end (or until the signal aborts). */
  private play(buffer: AudioBuffer, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(aborted());
    const context = this.context();
    this.sounding?.stop();
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    this.sounding = source;
    return new Promise((resolve, reject) => {
      source.addEventListener(
        'ended',
        () => {
          if (this.sounding === source) this.sounding = undefined;
          if (signal.aborted) reject(aborted());
          else resolve();
        },
        { once: true },
      );
      source.start();
    });
  }

  /** The narrator, then the learner's take, back to back. */
  private async playBack(signal: AbortSignal): Promise<void> {
    const item = this.item;
    const take = item && this.takes.get(item.id);
    if (!item || !take) return;
    this.reader.stop();
    this.setState('playing');
    this.say('Playing the narrator, then you.');
    const narrator = await this.narrator(item.audio).catch(() => undefined);
    if (narrator) await this.play(narrator, signal);
    await this.play(take.buffer, signal);
    this.panel.dataset.plays = String(Number(this.panel.dataset.plays ?? 0) + 1);
    this.status.textContent = 'Played. Record again to try once more.';
  }

  /** Leaving the chapter (or the page): the take under way stops, and the chapter's takes go. */
  private forget(): void {
    this.cancel();
    for (const take of this.takes.values()) URL.revokeObjectURL(take.url);
    this.takes.clear();
    this.narrators.clear();
    this.panel.remove();
    if (this.on) this.attach(Math.max(this.reader.current, 0));
  }
}
