import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegInput, probeDurationMs, runFfmpeg } from '../publishing/imports/ffmpeg';
import { cutSegments, detectSilences, previewSplit, type Span } from '../publishing/imports/silence-split';
import { DEMO_DIR } from '../platform/paths';
import { failWithoutFfmpeg } from './ffmpeg-present';

const CLIPS = ['c1-p1', 'c1-p2', 'c1-p3', 'c1-p4', 'c2-p1', 'c2-p2'].map((name) =>
  join(DEMO_DIR, 'audio', 'der-leuchtturmwarter', `${name}.mp3`),
);
const LEADING_MS = 300;
const TRAILING_MS = 500;
/** The pauses between the phrases, 0.4 to 1.2 s; the leading and trailing silences are longer than some. */
const PAUSES_MS = [400, 1200, 550, 900, 700];
const SAMPLE_RATE = 22_050;

// The demo clips carry their own silence at both ends. They are trimmed first (at -50 dB, well below the
// split's -35 dB), so that each inserted pause is the whole silence between two phrases: the interval the
// cut must fall in. The short pauses inside the phrases stay, as a narrator's would.
const TRIM = 'silenceremove=start_periods=1:start_threshold=-50dB';
const SPEECH_ONLY = `${TRIM},areverse,${TRIM},areverse,aformat=sample_rates=${SAMPLE_RATE}:channel_layouts=mono`;

const silence = (ms: number) => ['-f', 'lavfi', '-i', `anullsrc=r=${SAMPLE_RATE}:cl=mono:d=${ms / 1000}`];

/** Where the speech is in a file: from the end of its leading silence to the start of its trailing one. */
async function speechSpan(file: string): Promise<Span> {
  const { silences, durationMs } = await detectSilences(file);
  const leading = silences.find((s) => s.startMs === 0);
  const trailing = silences.find((s) => s.endMs === durationMs);
  return { startMs: leading?.endMs ?? 0, endMs: trailing?.startMs ?? durationMs };
}

/**
 * The long-recording split on a real recording: six demo clips joined by silences of known lengths.
 * ffmpeg is required to run the tests (`npm test` checks for it first), so without it the suite fails
 * with the install command instead of skipping unnoticed.
 */
describe('Splitting one long recording with ffmpeg', () => {
  let dir: string;
  let recording: string;
  /** Each phrase's speech and each inserted pause, in the recording's time. */
  const phrases: Span[] = [];
  const pauses: Span[] = [];
  /** Each trimmed phrase's own speech, as the split's threshold sees it. */
  const ownSpeech: Span[] = [];
  let totalMs = 0;

  beforeAll(async () => {
    failWithoutFfmpeg();
    dir = await mkdtemp(join(tmpdir(), 'lingonovel-split-'));
    const trimmed = CLIPS.map((_, i) => join(dir, `phrase-${i + 1}.wav`));
    await Promise.all(
      CLIPS.map((clip, i) =>
        runFfmpeg([
          '-v',
          'error',
          '-i',
          ffmpegInput(clip),
          '-af',
          SPEECH_ONLY,
          '-c:a',
          'pcm_s16le',
          trimmed[i],
        ]),
      ),
    );
    let at = LEADING_MS;
    for (const [i, file] of trimmed.entries()) {
      const durationMs = await probeDurationMs(file);
      phrases.push({ startMs: at, endMs: at + durationMs });
      at += durationMs;
      if (i < PAUSES_MS.length) {
        pauses.push({ startMs: at, endMs: at + PAUSES_MS[i] });
        at += PAUSES_MS[i];
      }
      ownSpeech.push(await speechSpan(file));
    }
    totalMs = at + TRAILING_MS;

    // silence, phrase 1, pause 1, phrase 2, …, phrase 6, silence: concatenated and encoded as one MP3 (VBR,
    // with a LAME header, as a narrator's editor would save it).
    const inputs = [...silence(LEADING_MS)];
    trimmed.forEach((file, i) => inputs.push('-i', file, ...silence([...PAUSES_MS, TRAILING_MS][i])));
    const count = 1 + trimmed.length * 2;
    const chain = Array.from({ length: count }, (_, i) => `[${i}:a]`).join('');
    recording = join(dir, 'chapter.mp3');
    await runFfmpeg([
      '-v',
      'error',
      ...inputs,
      '-filter_complex',
      `${chain}concat=n=${count}:v=0:a=1[out]`,
      '-map',
      '[out]',
      '-c:a',
      'libmp3lame',
      '-q:a',
      '4',
      recording,
    ]);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('cuts inside every pause, within 100 ms of its middle', async () => {
    const preview = await previewSplit(recording, CLIPS.length);

    expect(preview.error).toBeNull();
    expect(Math.abs(preview.durationMs - totalMs)).toBeLessThan(30);
    expect(preview.cutsMs).toHaveLength(PAUSES_MS.length);
    preview.cutsMs.forEach((cut, i) => {
      const pause = pauses[i];
      expect(cut).toBeGreaterThan(pause.startMs);
      expect(cut).toBeLessThan(pause.endMs);
      expect(Math.abs(cut - (pause.startMs + pause.endMs) / 2)).toBeLessThanOrEqual(100);
    });
    expect(preview.segments).toHaveLength(CLIPS.length);
  });

  it('says how many pauses it found when the text has more phrases than the recording', async () => {
    const preview = await previewSplit(recording, 20);
    expect(preview.error).toMatch(/^Found only \d+ pauses for 20 phrases$/);
    expect(preview.cutsMs.length).toBe(preview.found);
  });

  it('cuts every clip in one run, each clip holding its whole phrase and the length of its segment', async () => {
    const preview = await previewSplit(recording, CLIPS.length);
    const outDir = join(dir, 'clips');

    const clips = await cutSegments(recording, preview.cutsMs, outDir);

    expect(clips).toEqual(CLIPS.map((_, i) => join(outDir, `${String(i + 1).padStart(4, '0')}.mp3`)));
    for (const [i, clip] of clips.entries()) {
      const segment = preview.segments[i];
      const durationMs = await probeDurationMs(clip);
      expect(Math.abs(durationMs - (segment.endMs - segment.startMs))).toBeLessThanOrEqual(100);

      // The phrase's speech sits in its clip where it sat in the recording: the cut is accurate to ±30 ms.
      const speech = await speechSpan(clip);
      const expectedStart = phrases[i].startMs + ownSpeech[i].startMs - segment.startMs;
      const expectedLength = ownSpeech[i].endMs - ownSpeech[i].startMs;
      expect(Math.abs(speech.startMs - expectedStart)).toBeLessThanOrEqual(30);
      expect(Math.abs(speech.endMs - speech.startMs - expectedLength)).toBeLessThanOrEqual(30);
    }
  });

  it('refuses to cut into a folder that already holds clips, and leaves it as it was', async () => {
    const outDir = join(dir, 'clips');
    await expect(cutSegments(recording, [5000], outDir)).rejects.toThrow(/already holds clips/);
    expect(await probeDurationMs(join(outDir, '0001.mp3'))).toBeGreaterThan(0);
  });

  it('removes the clips it wrote when a cut lies past the end', async () => {
    const outDir = join(dir, 'past-the-end');
    await expect(cutSegments(recording, [5000, totalMs + 5000], outDir)).rejects.toThrow(/past the end/);
    expect(spawnSync('ls', [outDir], { encoding: 'utf8' }).stdout).toBe('');
  });
});
