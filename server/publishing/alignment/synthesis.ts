import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../imports/ffmpeg';
import { FeatureStream, FRAME_MS, SAMPLE_RATE } from './features';
import { ESPEAK_BIN } from './voices';
import { Pcm16Reader } from './pcm16';

/**
 * The text spoken by the reference voice, as features, with where each phrase ends. One eSpeak NG
 * process speaks the whole chapter (an hour's text in seconds); between two phrases it is told to pause
 * longer than it ever does inside one, and that pause is found again in its output, exactly: eSpeak's
 * pauses are digital silence. ffmpeg, reading eSpeak's output through a pipe, resamples it to the
 * features' 16 kHz. No PCM is kept or written; only the text goes to a temp file, for eSpeak to read.
 */

/** What eSpeak is told to pause between phrases; it never pauses half as long on its own. */
const SEPARATOR_MS = 1_500;
/** A run of silence this long in its output is a separator. */
const SEPARATOR_FOUND_MS = 1_000;
/** What is kept of a separator: the gap between two phrases in the text's timeline. */
export const GAP_MS = 200;
/** Samples this close to zero count as eSpeak's silence (resampling leaves a little ripple). */
const SILENT = 8;

export interface SpokenText {
  frames: Float32Array;
  frameCount: number;
  /** For each boundary between two phrases, the frame in the middle of the gap between them. */
  boundaries: number[];
}

function ssml(phrases: readonly string[]): string {
  const escape = (text: string) =>
    text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\s+/g, ' ');
  return `<speak>${phrases.map(escape).join(`<break time="${SEPARATOR_MS}ms"/>`)}</speak>`;
}

/** Passes samples on, but turns each separator into GAP_MS of silence and notes where it was. */
class Separators {
  private pendingSilence = 0;
  readonly boundaries: number[] = [];
  private readonly pcm = new Pcm16Reader((value) => this.sample(value));

  constructor(private readonly features: FeatureStream) {}

  write(chunk: Buffer): void {
    this.pcm.write(chunk);
  }

  private sample(value: number): void {
    if (value <= SILENT && value >= -SILENT) {
      this.pendingSilence++;
      return;
    }
    if (this.pendingSilence) this.flushSilence();
    this.features.push(value);
  }

  finish(): void {
    // Silence at the very end is no separator.
    this.pendingSilence = Math.min(this.pendingSilence, Math.round((GAP_MS * SAMPLE_RATE) / 2000));
    if (this.pendingSilence) this.flushSilence();
  }

  /** The end of one phrase spoken alone: what silence it ended with becomes a separator. */
  endPhrase(): void {
    this.pendingSilence = 0;
    this.features.silence(GAP_MS / 2);
    this.boundaries.push(Math.round((this.features.seconds * 1000) / FRAME_MS));
    this.features.silence(GAP_MS / 2);
  }

  private flushSilence(): void {
    const ms = (this.pendingSilence * 1000) / SAMPLE_RATE;
    this.pendingSilence = 0;
    if (ms < SEPARATOR_FOUND_MS) return this.features.silence(ms);
    // Two or more breaks in one silence: a phrase between them said nothing ("…"); it gets no time.
    for (let n = Math.max(1, Math.round(ms / SEPARATOR_MS)); n > 0; n--) this.endPhrase();
  }
}

/** eSpeak NG speaking `text` (SSML) with `voice`, resampled by ffmpeg, into `separators`. */
async function speak(
  text: string,
  voice: string,
  separators: Separators,
  signal?: AbortSignal,
): Promise<void> {
  // From a file: read from stdin, eSpeak loses an SSML tag that straddles two of its reads.
  const dir = await mkdtemp(join(tmpdir(), 'lingonovel-espeak-'));
  try {
    const file = join(dir, 'text.ssml');
    await writeFile(file, text);
    const espeak = spawn(ESPEAK_BIN, ['-v', voice, '-m', '-b', '1', '--stdout', '-f', file], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let exited = false;
    const spoken = new Promise<void>((resolve, reject) => {
      espeak.on('error', reject);
      // 'exit', not 'close': its stdout is read by ffmpeg, never here, so it never ends here.
      espeak.on('exit', (code) => {
        exited = true;
        return code === 0 ? resolve() : reject(new Error(`eSpeak NG failed (exit ${code})`));
      });
    });
    spoken.catch(() => undefined); // awaited below; an ffmpeg failure may come first
    try {
      await Promise.all([
        runFfmpeg(
          ['-nostats', '-v', 'error', '-f', 'wav', '-i', 'pipe:0', '-ac', '1'].concat([
            '-ar',
            String(SAMPLE_RATE),
            '-f',
            's16le',
            'pipe:1',
          ]),
          {
            stdin: espeak.stdout,
            onStdout: (chunk) => separators.write(chunk),
            timeoutMs: 10 * 60_000,
            signal,
          },
        ),
        spoken,
      ]);
    } finally {
      // ffmpeg failed or was stopped: eSpeak would wait forever on a pipe nobody reads.
      if (!exited) espeak.kill('SIGKILL');
      // Our end of its output, which ffmpeg read from its own copy.
      espeak.stdout.destroy();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Speaks the phrases with eSpeak NG's `voice`: all in one run when its separators are all found again,
 * else (a phrase eSpeak says nothing of, such as "…", merges two separators) one run per phrase.
 */
export async function speakPhrases(
  phrases: readonly string[],
  voice: string,
  signal?: AbortSignal,
): Promise<SpokenText> {
  let features = new FeatureStream();
  let separators = new Separators(features);
  await speak(ssml(phrases), voice, separators, signal);
  separators.finish();
  if (separators.boundaries.length !== phrases.length - 1) {
    features = new FeatureStream();
    separators = new Separators(features);
    for (const [n, phrase] of phrases.entries()) {
      await speak(ssml([phrase]), voice, separators, signal);
      if (n < phrases.length - 1) separators.endPhrase();
    }
    separators.finish();
  }
  return { ...features.finish(), boundaries: separators.boundaries };
}
