// The alignment section of docs/benchmarks.md (issue 31's "Measured"), from measureAlignment's figures
// (scripts/bench/alignment-timing.mjs); `BENCH_ONLY=alignment` writes it in place, keeping the others.
import { OPTIONS, POLL_MS, SAMPLE_MS, SLACK_MS } from './alignment-timing.mjs';
import { revision, runLine } from './formats-markdown.mjs';

export const ALIGNMENT_HEADING = '## Aligning a recording to its text (issue 31)';
/** The issue's targets: an hour aligned in a minute (60× real time), 300 MB, 800 phrases committed in 30 s. */
const SPEED = 60;
const GROWTH_LIMIT = 300 * 2 ** 20;
const COMMIT_LIMIT_MS = 30_000;
/** The job's shares of its progress (server/publishing/alignment/align.ts): speaking to 15%, listening to 60%. */
const SPOKEN = 15;
const HEARD = 60;

const fixed = (n, digits = 0) => Number(n).toFixed(digits);
const mb = (bytes) => `${fixed(bytes / 2 ** 20, 1)} MB`;
const s = (ms) => `${fixed(ms / 1000, ms < 10_000 ? 2 : 1)} s`;
const verdict = (ok) => (ok ? 'met' : '**missed**');
const clock = (ms) =>
  `${Math.floor(ms / 60_000)}:${fixed(Math.floor(ms / 1000) % 60).padStart(2, '0')}.${fixed(Math.floor(ms % 1000)).padStart(3, '0')}`;

/** When the job's progress first reached `percent`, as polled. */
const reached = (progress, percent) => progress.find((seen) => seen.percent >= percent)?.atMs ?? null;

function stagesLine(a) {
  const spoken = reached(a.progress, SPOKEN);
  const heard = reached(a.progress, HEARD);
  if (spoken === null || heard === null) return 'not seen (the job reported no progress between polls)';
  return `speaking (eSpeak NG through ffmpeg into MFCCs) ≈ ${s(spoken)}, listening (the recording decoded into MFCCs) ≈ ${s(heard - spoken)}, matching (warping, pauses, confidence) and staging ≈ ${s(a.alignMs - heard)}`;
}

/** The section's lines. `how` names the command that ran it; `load` the load average before and after. */
export function alignmentMarkdown(a, { root, how, load, at = revision(root) }) {
  const { sample, memory: m, accuracy: acc, commit: c, reference: r, background: b } = a;
  const mean = (pair) => (pair[0] + pair[1]) / 2;
  const espeakMs = mean(r.espeakMs);
  const decodeMs = mean(r.decodeMs);
  const speed = sample.durationMs / a.alignMs;
  const allowedMs = sample.durationMs / SPEED;
  const startOff = acc.startMs - sample.textStartMs;
  const startOk = startOff <= SLACK_MS && startOff > -1_000;
  const endOff = acc.endMs - sample.textEndMs;
  const children = Object.entries(m.childPeaks)
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([name, bytes]) => `${name} ${mb(bytes)}`)
    .join(', ');
  const made = sample.cached
    ? `kept from an earlier run under the temp folder (made in ${s(sample.generatedMs)})`
    : `made in this run in ${s(sample.generatedMs)}, and kept under the temp folder for the next`;
  return [
    ALIGNMENT_HEADING,
    '',
    runLine(how, at, load),
    `The recording (\`server/publishing/alignment/sample-recordings.ts\`): Festival's English \`kal_diphone\` (not the aligner's reference voice) reading ${sample.phrases} sentences (the 30 English sample sentences going round), each cut at its commas with breaths between the pieces, after a spoken announcement not in the text, with noise at −${OPTIONS.noiseDb} dBFS, the tempo × ${OPTIONS.tempo}, seed ${OPTIONS.seed}: ${clock(sample.durationMs)} long, a ${mb(sample.bytes)} MP3 at 64 kbit/s, ${made}. It is imported into a new chapter of a book whose language is \`en\` through the built server's API (SQLite): \`POST admin/chapter/{id}/import\` with the text (one sentence a line) and the MP3, then \`GET admin/import/{id}\` every ${POLL_MS} ms until it answers the preview, then \`POST admin/import/{id}/commit\`. The server's RSS, and that of every process under it (eSpeak NG, ffmpeg), are read from \`/proc\` every ${SAMPLE_MS} ms. Before the POST the bench waits until the server has run no child process for 8 s (its start-up's own, such as the tools it looks for), which took ${s(b.before.ms)} (${b.before.processes} child processes).`,
    '',
    '| measure | figure | target | |',
    '| --- | --- | --- | --- |',
    `| aligning: the POST's start to the preview (\`status: "ready"\`) | ${s(a.alignMs)}: ${fixed(speed, 1)}× real time; ${fixed(a.alignMs / allowedMs, 2)}× the time the target allows this recording (${s(allowedMs)}) | ≤ 60 s for 60 minutes (≥ ${SPEED}× real time) | ${verdict(speed >= SPEED)} |`,
    `| of which the POST itself (the upload, the recording checked and staged) | ${s(a.post.ms)}, answered ${a.post.status}${a.post.status === 202 ? ` at ${a.post.percent}% with an estimate of ${a.post.etaS} s` : ''} | informational | |`,
    `| the job's stages, from the progress it reports (written every 2 s, polled every ${POLL_MS} ms) | ${stagesLine(a)} | informational | |`,
    `| eSpeak NG alone speaking the text (\`espeak-ng -v ${r.voice} --stdout -f chapter.txt\`, output thrown away), just before the POST and after the commit | ${s(espeakMs)} (${r.espeakMs.map(s).join(', ')}); aligning took ${fixed(a.alignMs / espeakMs, 1)}× that | informational | |`,
    `| ffmpeg alone decoding the recording to 16 kHz mono PCM (the aligner's arguments), just before and after | ${s(decodeMs)} (${r.decodeMs.map(s).join(', ')}); aligning took ${fixed(a.alignMs / decodeMs, 1)}× that | informational | |`,
    `| the aligner's speaking stage alone (\`speakPhrases\`: eSpeak NG with its separators, resampled by ffmpeg, into MFCCs), in the bench's process, after | ${s(r.speakMs)}; ${fixed(r.speakMs / espeakMs, 1)}× eSpeak NG alone | informational | |`,
    `| memory: the server and its child processes, peak growth while aligning (over ${mb(m.totalBefore)} just before the POST; the peak ${s(m.peakAtMs)} after it; ${m.samples} samples) | ${mb(m.totalGrowth)} | ≤ 300 MB | ${verdict(m.totalGrowth <= GROWTH_LIMIT)} |`,
    `| of which the server's own process, peak growth (over ${mb(m.before)}) | ${mb(m.serverGrowth)} | informational | |`,
    `| its child processes at their peak, summed; each command's largest process | ${mb(m.childPeak)}; ${children || 'none seen'} | informational | |`,
    `| accuracy: cuts inside the true gap between their two sentences, ${SLACK_MS} ms either side | ${acc.right} of ${acc.cuts} (${fixed((acc.right / acc.cuts) * 100, 1)}%) | ≥ 95% | ${verdict(acc.right / acc.cuts >= 0.95)} |`,
    `| the text's start (\`start_ms\`) against the first sentence's (after the announcement) | ${clock(acc.startMs)} against ${clock(sample.textStartMs)}: ${fixed(Math.abs(startOff))} ms ${startOff <= 0 ? 'before' : 'after'} | before it (${SLACK_MS} ms either side), by less than 1 s (as the alignment tests ask) | ${verdict(startOk)} |`,
    `| the text's end (\`end_ms\`) against the last sentence's | ${clock(acc.endMs)} against ${clock(sample.textEndMs)}: ${fixed(Math.abs(endOff))} ms ${endOff >= 0 ? 'after' : 'before'} | after it | ${verdict(endOff >= -SLACK_MS)} |`,
    `| rows under the unsure threshold | ${acc.unsure} of ${acc.rows} | informational | |`,
    `| committing: the ${acc.rows} phrases cut from the recording and stored (\`POST admin/import/{id}/commit\`) | ${s(c.ms)}; ${c.added} added, ${c.phrases} in the chapter after; RSS growth: the server and its children ${mb(c.totalGrowth)}, the server ${mb(c.serverGrowth)} | ≤ 30 s, all ${acc.rows} phrases | ${verdict(c.ms <= COMMIT_LIMIT_MS && c.phrases === acc.rows)} |`,
    `| the commit's cutting alone (\`cutSegments\`: one ffmpeg run re-encoding the recording into ${r.clips} clips, MP3 at 44.1 kHz, at the preview's boundaries), in the bench's process, after the server's background measuring | ${s(r.cutMs)}; the commit took ${fixed(c.ms / r.cutMs, 2)}× that | informational | |`,
    `| after the commit: the server's background measuring of the new clips' lengths (docs/formats.md, "Exact lengths"), from the commit's answer to its last child process | ${s(b.afterCommit.ms)}, ${b.afterCommit.processes} child processes | informational | |`,
    '',
  ];
}
