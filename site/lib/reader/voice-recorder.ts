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
 */
import { fetchForDevice } from '../api';
import type { ReaderHost } from './practice';
import { drawWaveform } from './waveform';

interface Take {
  url: string;
  type: string;
  buffer: AudioBuffer;
}

const NARRATOR_COLOUR = '#1d4ed8';
const LEARNER_COLOUR = '#b45309';
/** The longest take, whatever the phrase's length. */
const MAX_TAKE_MS = 30_000;

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
    this.record.addEventListener('click', () => void (this.recorder ? this.recorder.stop() : this.take()));
    this.playBoth.addEventListener('click', () => void this.playBack());
    reader.addEventListener(
      'reader:selected',
      (event) => this.on && this.attach((event as CustomEvent<number>).detail),
    );
    reader.addEventListener('reader:chapter', () => this.forget());
    addEventListener('pagehide', () => this.forget());
  }

  setOn(on: boolean): void {
    this.on = on;
    if (!on) {
      this.recorder?.stop();
      return this.panel.remove();
    }
    this.attach(Math.max(this.reader.current, 0));
  }

  private get item() {
    return this.reader.phrases.find((item) => item.li === this.panel.parentElement);
  }

  /** Under the current phrase, with that phrase's take when there is one. */
  private attach(index: number): void {
    const item = this.reader.phrases[index];
    if (!item || this.recorder) return;
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
    if (!item || !take) return;
    this.download.href = take.url;
    const extension = /ogg/.test(take.type) ? 'ogg' : /mp4/.test(take.type) ? 'm4a' : 'webm';
    this.download.download = `${this.reader.book}-${this.reader.chapterNo}-phrase-${item.position}.${extension}`;
    const narrator = await this.narrator(item.audio).catch(() => undefined);
    const seconds = Math.max(narrator?.duration ?? 0, take.buffer.duration);
    if (narrator) drawWaveform(this.canvases.narrator, narrator, seconds, NARRATOR_COLOUR);
    drawWaveform(this.canvases.you, take.buffer, seconds, LEARNER_COLOUR);
  }

  private context(): AudioContext {
    this.audio ??= new AudioContext();
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

  /** Ask for the microphone, play the narrator, record the learner, then play both. */
  private async take(): Promise<void> {
    const item = this.item;
    if (!item) return;
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined')
      return this.say(
        'This browser cannot record here (it needs a secure connection). Shadowing still pauses after each phrase.',
      );
    this.reader.stop();
    this.context();
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      const name = error instanceof DOMException ? error.name : '';
      return this.say(
        name === 'NotFoundError' || name === 'OverconstrainedError'
          ? 'No microphone was found. Shadowing still pauses after each phrase, to repeat aloud.'
          : 'The microphone is off for this site. Allow it in your browser’s settings to record; shadowing still pauses after each phrase.',
      );
    }
    try {
      const narrator = await this.narrator(item.audio);
      this.say('Listen to the narrator…');
      await this.play(narrator, 'narrator');
      const blob = await this.capture(stream, narrator.duration);
      const buffer = await this.context().decodeAudioData(await blob.arrayBuffer());
      const old = this.takes.get(item.id);
      if (old) URL.revokeObjectURL(old.url);
      this.takes.set(item.id, { url: URL.createObjectURL(blob), type: blob.type, buffer });
      await this.showTake();
      await this.playBack();
    } catch {
      this.say('The recording did not work. Try again; shadowing still pauses after each phrase.');
    } finally {
      for (const track of stream.getTracks()) track.stop();
    }
  }

  /** Records until Stop, or twice the phrase's length and a second and a half. */
  private capture(stream: MediaStream, seconds: number): Promise<Blob> {
    return new Promise((resolve, reject) => {
      const recorder = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      this.recorder = recorder;
      recorder.addEventListener('dataavailable', (event) => event.data.size && chunks.push(event.data));
      const limit = setTimeout(
        () => recorder.state !== 'inactive' && recorder.stop(),
        Math.min(MAX_TAKE_MS, seconds * 2000 + 1500),
      );
      recorder.addEventListener('stop', () => {
        clearTimeout(limit);
        this.recorder = undefined;
        this.record.textContent = 'Record my voice';
        this.panel.dataset.state = 'recorded';
        if (chunks.length === 0) reject(new Error('Nothing was recorded.'));
        else resolve(new Blob(chunks, { type: recorder.mimeType || chunks[0].type }));
      });
      recorder.addEventListener('error', () => reject(new Error('The recorder failed.')));
      recorder.start();
      this.record.textContent = 'Stop recording';
      this.panel.dataset.state = 'recording';
      this.say('Recording: say the phrase now.');
    });
  }

  /** Plays a decoded buffer through Web Audio, to its end. */
  private play(buffer: AudioBuffer, who: 'narrator' | 'you'): Promise<void> {
    const context = this.context();
    this.sounding?.stop();
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    this.sounding = source;
    this.panel.dataset.state = who;
    return new Promise((resolve) => {
      source.addEventListener('ended', () => resolve(), { once: true });
      source.start();
    });
  }

  /** The narrator, then the learner's take, back to back. */
  private async playBack(): Promise<void> {
    const item = this.item;
    const take = item && this.takes.get(item.id);
    if (!item || !take) return;
    this.reader.stop();
    this.say('Playing the narrator, then you.');
    const narrator = await this.narrator(item.audio).catch(() => undefined);
    if (narrator) await this.play(narrator, 'narrator');
    await this.play(take.buffer, 'you');
    this.panel.dataset.state = 'played';
    this.panel.dataset.plays = String(Number(this.panel.dataset.plays ?? 0) + 1);
    this.status.textContent = 'Played. Record again to try once more.';
  }

  /** Leaving the chapter: its takes go. */
  private forget(): void {
    for (const take of this.takes.values()) URL.revokeObjectURL(take.url);
    this.takes.clear();
    this.narrators.clear();
    if (this.on) this.attach(Math.max(this.reader.current, 0));
  }
}
