import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlignmentError, alignRecording } from '../publishing/alignment/align';
import { ENGLISH, ITALIAN, makeSampleRecording } from '../publishing/alignment/sample-recordings';
import { GAP_MS, speakPhrases } from '../publishing/alignment/synthesis';
import { probeDurationMs, runFfmpeg } from '../publishing/imports/ffmpeg';

jest.setTimeout(180_000);

/** What the aligner refuses, by name, and what it flags (docs/alignment.md). */
describe('Aligning what does not fit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lingonovel-align-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a silent recording', async () => {
    const file = join(dir, 'silent.mp3');
    await runFfmpeg(['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '10', file]);
    await expect(alignRecording(file, ENGLISH.sentences.slice(0, 5), 'en-us', 10_000)).rejects.toThrow(
      new AlignmentError('The recording is silent: check that this is the right file.'),
    );
  });

  it('refuses 2,000 phrases for a recording of a few seconds', async () => {
    const sample = await makeSampleRecording(
      ENGLISH,
      { sentences: 3, intro: 'music', tempo: 1, seed: 7 },
      dir,
    );
    const phrases = Array.from({ length: 2000 }, (_, n) => ENGLISH.sentences[n % ENGLISH.sentences.length]);
    const durationMs = await probeDurationMs(sample.file);
    await expect(alignRecording(sample.file, phrases, 'en-us', durationMs)).rejects.toThrow(
      /is too short for 2000 phrases: check that this is the right recording and text\.$/,
    );
  });

  it('refuses a text too long for its recording that the quick count of letters lets through', async () => {
    // Past the quick count of letters (at most 30 a second), but eSpeak's own time (about 15 a second)
    // is over twice the recording's: the measure after speaking refuses it, with the same message.
    const sample = await makeSampleRecording(
      ENGLISH,
      { sentences: 2, intro: 'music', tempo: 1, seed: 9 },
      dir,
    );
    const durationMs = await probeDurationMs(sample.file);
    const letters = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;
    const phrases: string[] = [];
    for (let n = 0, total = 0; total < (durationMs / 1000) * 45; n++) {
      phrases.push(ENGLISH.sentences[n % ENGLISH.sentences.length]);
      total += letters(phrases[n]);
    }
    await expect(alignRecording(sample.file, phrases, 'en-us', durationMs)).rejects.toThrow(
      new RegExp(
        `is too short for ${phrases.length} phrases: check that this is the right recording and text\\.$`,
      ),
    );
  });

  it('is far less sure of a recording of another text than of its own', async () => {
    const sample = await makeSampleRecording(
      ENGLISH,
      { sentences: 20, intro: 'music', tempo: 1, seed: 8 },
      dir,
    );
    const durationMs = await probeDurationMs(sample.file);
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const other = await alignRecording(sample.file, ITALIAN.sentences.slice(0, 20), 'it', durationMs);
    const own = await alignRecording(sample.file, sample.phrases, 'en-us', durationMs);
    expect(mean(own.confidence) - mean(other.confidence)).toBeGreaterThan(0.4);
    // Most rows of the other text are under the import's line (0.5), almost none of its own.
    expect(other.confidence.filter((c) => c < 0.5).length).toBeGreaterThan(15);
    expect(own.confidence.filter((c) => c < 0.5).length).toBeLessThanOrEqual(1);
  });

  it('gives a phrase eSpeak says nothing of its own boundaries, and no time between them', async () => {
    const phrases = ['The ferry came.', '…', 'Nobody minded.', 'He read the letter.'];
    const spoken = await speakPhrases(phrases, 'en-us');
    expect(spoken.boundaries).toHaveLength(3);
    // The silent phrase holds no more than the gaps around it.
    expect(spoken.boundaries[1] - spoken.boundaries[0]).toBeLessThanOrEqual(GAP_MS / 20 + 1);
  });
});
