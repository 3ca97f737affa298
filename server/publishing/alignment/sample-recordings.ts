import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../imports/ffmpeg';
import { wavHeader } from './pcm16';

/**
 * Recordings made to measure the aligner on (its tests and `npm run bench`): what a publisher's
 * audiobook does to a naive cut, and none of it spoken by the aligner's own reference voice. Debian's
 * Festival reads each piece of a sentence (cut at its commas) with one of its voices; then, with a seeded
 * random choice, the pieces are laid out with breaths inside sentences that are longer than some gaps
 * between them, after an intro not in the text (music, or a spoken announcement), with background noise
 * throughout, and the whole tempo changed. Where every sentence gap lies is known exactly: that is the
 * truth a cut is checked against (docs/alignment.md).
 */

export interface SampleLanguage {
  /** The book's language. */
  tag: string;
  /** Festival's voice, as its `voice_…` function is named. */
  festivalVoice: string;
  sentences: readonly string[];
  announcement: string;
}

export const ENGLISH: SampleLanguage = {
  tag: 'en',
  festivalVoice: 'kal_diphone',
  announcement: 'This recording is in the public domain. Chapter one, read by a volunteer.',
  sentences: [
    'The ferry brought the mail only twice a week.',
    'Nobody on the island minded, because nobody wrote many letters.',
    'Henrik opened the envelope slowly, as if it might bite him.',
    'Inside was a single page, folded three times.',
    'He read it twice, then put it in his pocket.',
    'The wind had turned to the north during the night.',
    'By morning, the harbour was full of grey water and gulls.',
    'His sister was already in the kitchen, making coffee.',
    'She asked who had written to him.',
    'He said it was nothing, and looked out of the window.',
    'The boats stayed in, because the sea was too rough.',
    'In the afternoon, he walked to the lighthouse alone.',
    'The keeper was an old man with a red beard.',
    'They talked about the weather, the fish, and the price of petrol.',
    'At last, Henrik showed him the letter.',
    'The old man read it, and his face went pale.',
    'Where did you get this, he asked quietly.',
    'It came on the ferry, like everything else.',
    'The keeper gave the letter back without a word.',
    'Then he climbed the stairs to the lamp room.',
    'Henrik followed him, counting the steps as he went.',
    'From the top, they could see the whole island.',
    'The houses looked small, like toys on a table.',
    'Far away, a ship was moving slowly to the south.',
    'The keeper pointed at it, and said one word.',
    'Tomorrow, he said, it will be here.',
    'Henrik did not understand, but he nodded anyway.',
    'On the way home, it started to rain.',
    'He ran the last part, with his coat over his head.',
    'His sister was waiting for him at the door.',
  ],
};

export const ITALIAN: SampleLanguage = {
  tag: 'it',
  festivalVoice: 'lp_diphone',
  announcement:
    'Questa registrazione appartiene al pubblico dominio. Capitolo primo, letto da un volontario.',
  sentences: [
    'Il traghetto portava la posta solo due volte alla settimana.',
    'Nessuno sull isola se ne lamentava, perche nessuno scriveva molte lettere.',
    'Enrico apri la busta lentamente, come se potesse morderlo.',
    'Dentro cera un solo foglio, piegato tre volte.',
    'Lo lesse due volte, poi lo mise in tasca.',
    'Durante la notte il vento era girato a nord.',
    'Al mattino, il porto era pieno di acqua grigia e di gabbiani.',
    'Sua sorella era gia in cucina, a preparare il caffe.',
    'Gli chiese chi gli avesse scritto.',
    'Lui disse che non era niente, e guardo fuori dalla finestra.',
    'Le barche rimasero in porto, perche il mare era troppo mosso.',
    'Nel pomeriggio, cammino da solo fino al faro.',
    'Il guardiano era un vecchio con la barba rossa.',
    'Parlarono del tempo, del pesce, e del prezzo della benzina.',
    'Alla fine, Enrico gli mostro la lettera.',
    'Il vecchio la lesse, e il suo viso divenne pallido.',
    'Dove lhai presa, chiese sottovoce.',
    'E arrivata con il traghetto, come tutto il resto.',
    'Il guardiano gli restitui la lettera senza una parola.',
    'Poi sali le scale fino alla stanza della lampada.',
    'Enrico lo segui, contando i gradini.',
    'Dalla cima, si vedeva tutta l isola.',
    'Le case sembravano piccole, come giocattoli su un tavolo.',
    'Lontano, una nave si muoveva lentamente verso sud.',
  ],
};

export interface SampleOptions {
  /** How many of the language's sentences (from the first), or more by going round again. */
  sentences: number;
  intro: 'music' | 'speech';
  /** 0.94 to 1.06: the reading made that much faster (ffmpeg's atempo). */
  tempo: number;
  /** The seed of every random choice: the same seed makes the same recording. */
  seed: number;
  /** Background noise, dB below full scale. */
  noiseDb?: number;
}

export interface SampleRecording {
  /** The MP3. */
  file: string;
  /** The text, one sentence a line. */
  phrases: string[];
  /** Each gap between two sentences, in ms of the MP3: a right cut lies inside one, give or take 50 ms. */
  gaps: Array<{ startMs: number; endMs: number }>;
  /** Where the first sentence begins and the last ends, in ms of the MP3. */
  textStartMs: number;
  textEndMs: number;
  durationMs: number;
}

const RATE = 16_000;

/** A small seeded generator (mulberry32): the same recording every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function festival(script: string, dir: string): Promise<void> {
  const file = join(dir, 'script.scm');
  writeFileSync(file, script, 'latin1');
  return new Promise((resolve, reject) =>
    execFile('festival', ['-b', file], { timeout: 20 * 60_000 }, (error) =>
      error ? reject(new Error(`Festival failed: ${error.message}`)) : resolve(),
    ),
  );
}

/** The samples of a Festival WAV with its silent ends cut off. */
function speechOf(file: string): Int16Array {
  const bytes = readFileSync(file);
  const data = bytes.indexOf('data', 12);
  const samples = new Int16Array(
    bytes.buffer.slice(bytes.byteOffset + data + 8, bytes.byteOffset + bytes.length),
  );
  let first = 0;
  let last = samples.length - 1;
  while (first < last && Math.abs(samples[first]) < 200) first++;
  while (last > first && Math.abs(samples[last]) < 200) last--;
  return samples.subarray(first, last + 1);
}

function music(ms: number, next: () => number): Float64Array {
  const out = new Float64Array(Math.round((ms * RATE) / 1000));
  const notes = [220, 277.18, 329.63, 440, 329.63, 277.18];
  const noteLength = Math.round(RATE * (0.25 + next() * 0.2));
  for (let i = 0; i < out.length; i++) {
    const f = notes[Math.floor(i / noteLength) % notes.length];
    const envelope = Math.min(1, (i % noteLength) / 400) * Math.exp(-(i % noteLength) / (RATE * 0.4));
    out[i] =
      6000 *
      envelope *
      (Math.sin((2 * Math.PI * f * i) / RATE) + 0.3 * Math.sin((4 * Math.PI * f * i) / RATE));
  }
  return out;
}

/** Writes a recording to `dir` and returns it with its truth. Needs Festival (with the voice) and ffmpeg. */
export async function makeSampleRecording(
  language: SampleLanguage,
  options: SampleOptions,
  dir: string,
): Promise<SampleRecording> {
  const next = random(options.seed);
  const phrases = Array.from(
    { length: options.sentences },
    (_, n) => language.sentences[n % language.sentences.length],
  );
  const work = mkdtempSync(join(tmpdir(), 'lingonovel-sample-'));
  try {
    // Every piece: each sentence cut at its commas, and the announcement.
    const pieces = phrases.map((sentence) => sentence.split(/,\s*/));
    const lines = [`(voice_${language.festivalVoice})`];
    const say = (text: string, name: string) =>
      lines.push(
        `(utt.save.wave (utt.synth (Utterance Text "${text.replace(/["\\]/g, '')}")) "${join(work, name)}" 'riff)`,
      );
    pieces.forEach((parts, s) => parts.forEach((part, p) => say(part, `${s}-${p}.wav`)));
    say(language.announcement, 'announcement.wav');
    await festival(lines.join('\n'), work);

    const ms = (n: number) => Math.round((n * RATE) / 1000);
    const chunks: Float64Array[] = [];
    let length = 0;
    const add = (chunk: Float64Array) => {
      chunks.push(chunk);
      length += chunk.length;
    };
    const pause = (milliseconds: number) => add(new Float64Array(ms(milliseconds)));
    pause(300 + next() * 500);
    if (options.intro === 'music') add(music(4000 + next() * 3000, next));
    else add(Float64Array.from(speechOf(join(work, 'announcement.wav'))));
    pause(700 + next() * 500);
    const gaps: Array<{ start: number; end: number }> = [];
    let textStart = 0;
    let textEnd = 0;
    pieces.forEach((parts, s) => {
      if (s === 0) textStart = length;
      else {
        // Between sentences: 250 to 700 ms.
        const start = length;
        pause(250 + next() * 450);
        gaps.push({ start, end: length });
      }
      parts.forEach((_, p) => {
        // A breath at a comma: 400 to 900 ms, longer than many gaps between sentences.
        if (p > 0) pause(400 + next() * 500);
        add(Float64Array.from(speechOf(join(work, `${s}-${p}.wav`))));
      });
      textEnd = length;
    });
    pause(500 + next() * 1000);

    // Background noise throughout, then 16-bit samples.
    const noise = 32768 * 10 ** (-(options.noiseDb ?? 45) / 20) * Math.sqrt(3);
    const samples = new Int16Array(length);
    let at = 0;
    for (const chunk of chunks)
      for (const value of chunk)
        samples[at++] = Math.max(-32768, Math.min(32767, Math.round(value + noise * (2 * next() - 1))));
    const wav = join(work, 'reading.wav');
    writeFileSync(wav, Buffer.concat([wavHeader(samples.length, RATE), Buffer.from(samples.buffer)]));

    const file = join(dir, `sample-${language.tag}-${options.seed}.mp3`);
    await runFfmpeg(
      [
        '-v',
        'error',
        '-y',
        '-i',
        wav,
        '-af',
        `atempo=${options.tempo}`,
        '-c:a',
        'libmp3lame',
        '-b:a',
        '64k',
        file,
      ],
      {
        timeoutMs: 10 * 60_000,
      },
    );
    // atempo keeps the timeline's proportions; the MP3 decoder gives back exactly the samples encoded.
    const toMs = (sample: number) => (sample * 1000) / RATE / options.tempo;
    return {
      file,
      phrases,
      gaps: gaps.map(({ start, end }) => ({ startMs: toMs(start), endMs: toMs(end) })),
      textStartMs: toMs(textStart),
      textEndMs: toMs(textEnd),
      durationMs: toMs(length),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
