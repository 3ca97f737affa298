// Dictation scoring under load (issue 30, item 1; docs/practice.md, "Bounds"): /api/v1/health's latency
// alone, and while three members send the largest answer the API takes against the longest phrase, one
// after another as fast as they are answered. Twice: as the rate limits let them (each member has its
// dictations counted and the characters compared budgeted), and with every request from a member whose
// budget is not spent yet (the scoring alone, as many accounts would get). Idle runs before and after.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { revision, runLine } from './formats-markdown.mjs';
import { adminHeaders } from './import-timing.mjs';

const root = new URL('../..', import.meta.url).pathname;
export const DICTATION_HEADING = '## Dictation scoring under load (issue 30)';
const SECONDS = Number(process.env.BENCH_DICTATION_SECONDS ?? 10);
const SENDERS = 3;
/** Members for the run without limits: each is scored 9 times a minute at this size (11 thousand each). */
const FRESH_MEMBERS = Number(process.env.BENCH_DICTATION_MEMBERS ?? 60);
const TARGET_P95_MS = 100;

/** The longest phrase (2,000 characters) and the largest answer (10,000), words near the phrase's. */
const PHRASE = Array.from({ length: 400 }, (_, i) => `mot${i}`)
  .join(' ')
  .slice(0, 2000);
const ANSWER = Array.from({ length: 2000 }, (_, i) => `mos${i % 400}`)
  .join(' ')
  .slice(0, 10_000);

let address = 0;
/** Each member from its own address, so the per-address sign-up limit never answers instead. */
const forwarded = () => ({ 'X-Forwarded-For': `10.98.${address >> 8}.${address++ & 255}` });

const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const percentile = (list, p) => {
  if (!list.length) return NaN;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
};

/** A new book whose free chapter 1 holds one phrase of 2,000 characters: its id. */
async function longestPhrase(base, storage) {
  const auth = await adminHeaders(base, storage);
  const form = new FormData();
  const fields = {
    title: 'Dictation benchmark',
    author: 'Bench',
    narrated_by: 'Bench',
    hours: '0',
    minutes: '1',
    description: 'One phrase of 2,000 characters, for the dictation benchmark.',
    difficulty: 'Easy',
    sample_text: 'mot0 mot1',
    language: 'fr',
    cefr: 'A2',
  };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const audio = join(root, 'server/seed/demo/audio');
  const book0 = readdirSync(audio).sort()[0];
  const clipName = readdirSync(join(audio, book0)).find((name) => name.endsWith('.mp3'));
  const clip = new Blob([readFileSync(join(audio, book0, clipName))], { type: 'audio/mpeg' });
  const cover = readFileSync(join(root, 'server/seed/demo/covers/le-petit-voyage.jpg'));
  form.set('book_image', new Blob([cover], { type: 'image/jpeg' }), 'cover.jpg');
  form.set('sample_audio', clip, 'sample.mp3');
  const book = await fetch(`${base}/api/v1/admin/book`, { method: 'POST', headers: auth, body: form });
  if (!book.ok) throw new Error(`new book: ${book.status} ${await book.text()}`);
  const chapter = await fetch(`${base}/api/v1/admin/chapter`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: 'The longest phrase',
      chapter_no: 1,
      book_id: (await book.json()).data.id,
    }),
  });
  if (!chapter.ok) throw new Error(`new chapter: ${chapter.status} ${await chapter.text()}`);
  const phrase = new FormData();
  phrase.set('chapter_id', String((await chapter.json()).data.id));
  phrase.set('phrase', PHRASE);
  phrase.set('dictionary', 'mot — word');
  phrase.set('line_audio', clip, 'clip.mp3');
  const made = await fetch(`${base}/api/v1/admin/phrase`, { method: 'POST', headers: auth, body: phrase });
  if (!made.ok) throw new Error(`new phrase: ${made.status} ${await made.text()}`);
  return (await made.json()).data.id;
}

/** A new member's Authorization header. */
async function member(base, n) {
  const email = `bench-dictation-${Date.now()}-${n}@example.org`;
  const password = 'a bench password 1';
  const res = await fetch(`${base}/api/v1/user/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...forwarded() },
    body: JSON.stringify({ name: 'Bench', email, password, repeat_password: password }),
  });
  if (res.status !== 200) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
  return { Authorization: `Bearer ${(await res.json()).token}` };
}

/** GET /api/v1/health one after another until `until()`: each answer's time, and any failure. */
async function probe(base, until) {
  const times = [];
  const failures = [];
  while (!until()) {
    const started = process.hrtime.bigint();
    try {
      const res = await fetch(`${base}/api/v1/health`);
      const body = await res.text();
      if (res.status !== 200 || body !== '{"status":"ok"}') failures.push(`health ${res.status} ${body}`);
      else times.push(ms(started));
    } catch (error) {
      failures.push(`health: ${error.message}`);
    }
  }
  return { times, failures };
}

/**
 * One member (or, with `next`, one member after another, each until refused) sending the largest answer
 * until `until()`: the statuses and the times of the scored ones.
 */
async function send(base, phraseId, members, until, tally) {
  let current = 0;
  while (!until() && current < members.length) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${base}/api/v1/user/dictation`, {
      method: 'POST',
      headers: { ...members[current], 'Content-Type': 'application/json' },
      body: JSON.stringify({ phrase_id: phraseId, text: ANSWER }),
    });
    const body = await res.text();
    tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
    if (res.status === 201) tally.scored.push(ms(started));
    else if (res.status === 429) {
      if (members.length > 1) current++;
    } else tally.failures.push(`dictation ${res.status} ${body.slice(0, 200)}`);
  }
  tally.ranOut ||= current >= members.length;
}

async function idle(base) {
  const end = Date.now() + SECONDS * 1000;
  return { ...(await probe(base, () => Date.now() >= end)), statuses: {}, scored: [], failures: [] };
}

async function loaded(base, phraseId, senders) {
  const end = Date.now() + SECONDS * 1000;
  const until = () => Date.now() >= end;
  const tally = { statuses: {}, scored: [], failures: [], ranOut: false };
  const [health] = await Promise.all([
    probe(base, until),
    ...senders.map((members) => send(base, phraseId, members, until, tally)),
  ]);
  return { ...health, ...tally, failures: [...health.failures, ...tally.failures] };
}

export async function measureDictationLoad(base, storage) {
  const phraseId = await longestPhrase(base, storage);
  const limited = [];
  for (let i = 0; i < SENDERS; i++) limited.push([await member(base, i)]);
  const fresh = Array.from({ length: SENDERS }, () => []);
  for (let i = 0; i < FRESH_MEMBERS; i++) fresh[i % SENDERS].push(await member(base, SENDERS + i));
  // A warm-up, not counted: the JIT, the segmenter's dictionaries, the connections.
  await loaded(base, phraseId, [[await member(base, -1)]]);
  const before = await idle(base);
  const withLimits = await loaded(base, phraseId, limited);
  const withoutLimits = await loaded(base, phraseId, fresh);
  const after = await idle(base);
  return { seconds: SECONDS, freshMembers: FRESH_MEMBERS, before, withLimits, withoutLimits, after };
}

const fixed = (n, digits = 1) => (Number.isFinite(n) ? Number(n).toFixed(digits) : '—');
const verdict = (ok) => (ok ? 'met' : '**missed**');

/** The section's lines; `how` names the command that ran it, `load` the load average before and after. */
export function dictationMarkdown(result, { how, load }) {
  const { before, after, withLimits, withoutLimits } = result;
  const idleTimes = [...before.times, ...after.times];
  const idleP50 = percentile(idleTimes, 0.5);
  const idleP95 = percentile(idleTimes, 0.95);
  const statuses = (run) =>
    Object.entries(run.statuses)
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ');
  const row = (label, run, target) => {
    const p50 = percentile(run.times, 0.5);
    const p95 = percentile(run.times, 0.95);
    const ok = p95 < TARGET_P95_MS && run.failures.length === 0;
    return `| ${label} | ${run.times.length} | ${fixed(p50)} ms | ${fixed(p95)} ms | ${fixed(p50 / idleP50, 2)}× | ${fixed(p95 / idleP95, 2)}× | ${statuses(run) || '—'} | ${run.scored.length ? `${fixed(percentile(run.scored, 0.5))} ms / ${fixed(percentile(run.scored, 0.95))} ms` : '—'} | ${target ? `p95 < ${TARGET_P95_MS} ms` : 'baseline'} | ${target ? verdict(ok) : ''} |`;
  };
  const failures = [before, withLimits, withoutLimits, after].flatMap((run) => run.failures);
  return [
    DICTATION_HEADING,
    '',
    runLine(how, revision(root), load),
    `The built server on SQLite with the demo catalogue and one more book whose free chapter holds one phrase of 2,000 characters (\`mot0 mot1 …\`). Each member sends \`POST /api/v1/user/dictation\` with the largest answer the API takes, 10,000 characters of words near the phrase's (\`mos0 mos1 …\`, each one letter off), again as soon as the last is answered; \`GET /api/v1/health\` is asked one request after another by a fourth client, for ${result.seconds} s per row (\`scripts/bench/dictation-load.mjs\`). Times are the client's, over loopback.`,
    `"With the limits": three members, each refused once its dictations reach 60 a minute or the characters it had compared reach 100 thousand a minute (11 thousand for this phrase and answer, so 9 a minute; docs/practice.md). "Scoring alone": three senders, each request from a member whose budget is not spent yet (${result.freshMembers} members, moving on to the next at a 429), so that what is measured is the scoring itself.`,
    '',
    '| run | health answers | health p50 | health p95 | p50 ratio to idle | p95 ratio to idle | dictation answers | scored: p50 / p95 | target | |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |',
    row('idle, before and after', { ...before, times: idleTimes }, false),
    row('three members sending the largest answers, with the limits', withLimits, true),
    row('three senders, every request scored (scoring alone)', withoutLimits, true),
    '',
    `Failures (a health answer other than 200 \`{"status":"ok"}\`, a dictation answer other than 201 or 429): ${failures.length ? failures.slice(0, 10).join('; ') : 'none'}.${withoutLimits.ranOut ? ' The scoring-alone run spent every member it had before its end.' : ''}`,
    `Target (issue 30): health p95 under ${TARGET_P95_MS} ms while three members send the largest answers. Before the fix, one such member under the rate limit pushed health's p50 to 905 ms and three to 3.1 s: each answer took about 1.3 s of the event loop.`,
    '',
  ];
}

export function reportDictationFailures(result) {
  const failures = [result.before, result.withLimits, result.withoutLimits, result.after].flatMap(
    (run) => run.failures,
  );
  if (!failures.length) return;
  console.error(
    `\n✖ Dictation load failed ${failures.length} time(s):\n  ${failures.slice(0, 20).join('\n  ')}`,
  );
  process.exitCode = 1;
}
