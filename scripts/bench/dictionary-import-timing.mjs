// Importing a large dictionary: Debian's dict-freedict-deu-eng (a 12.7 MB .index and a 16.8 MB .dict.dz,
// about half a million entries) through the built server's admin API, timed from the first byte sent to
// the answer, with the server's RSS sampled meanwhile (docs/dictionaries.md, "Bounds"; the targets are
// 60 s and 200 MB of growth).
// Run by `BENCH_ONLY=dictionaries node scripts/bench.mjs`.
import { existsSync, openAsBlob, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const FREEDICT_DIR = '/usr/share/dictd';
export const INSTALL_HINT = 'Install it with: sudo apt-get install -y dict-freedict-deu-eng';

/** The server's resident memory, in bytes (Linux). */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** The CPU time the server has used, in ms (Linux; clock ticks of 10 ms): on a busy machine, what the
 * import itself cost, whatever the wall clock says. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Imports `<dir>/<name>.index` and `.dict.dz` as a new dictionary (`auth`: an administrator's headers),
 * then, when `replace` is set, imports them again over it (the replacement writes a second generation
 * beside the first). Answers the time and the peak RSS growth of each, the entries and the id. The
 * dictionary is left in place, for the lookup's bench.
 */
export async function measureDictionaryImport(
  base,
  auth,
  pid,
  { dir = FREEDICT_DIR, name = 'freedict-deu-eng', source = 'de', target = 'en', replace = false } = {},
) {
  const files = [`${name}.index`, `${name}.dict.dz`].map((file) => join(dir, file));
  for (const file of files) if (!existsSync(file)) throw new Error(`${file} is missing. ${INSTALL_HINT}`);
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const send = async (method, path, fields) => {
    const form = new FormData();
    for (const file of files) form.append('files', await openAsBlob(file), file.split('/').pop());
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    const before = rss(pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
    const started = performance.now();
    const cpu = cpuMs(pid);
    try {
      const res = await fetch(`${base}/api/v1/${path}`, { method, headers: auth, body: form });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      const answer = (await res.json()).data;
      const ms = performance.now() - started;
      return { ms, cpuMs: cpuMs(pid) - cpu, growth: Math.max(0, peak - before), answer };
    } finally {
      clearInterval(timer);
    }
  };
  const created = await send('POST', 'admin/dictionary', { source, target });
  const replaced = replace ? await send('PUT', `admin/dictionary/${created.answer.id}`, {}) : null;
  return {
    bytes,
    id: created.answer.id,
    entries: created.answer.entries,
    import: { ms: created.ms, cpuMs: created.cpuMs, growth: created.growth },
    replace: replaced && { ms: replaced.ms, cpuMs: replaced.cpuMs, growth: replaced.growth },
  };
}

/** The bench's rows (docs/benchmarks.md), from measureDictionaryImport's answer. */
export function dictionaryImportMarkdown(result, engine) {
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const mb = (n) => `${(n / 2 ** 20).toFixed(1)} MB`;
  const rows = [
    `| Import of FreeDict German-English (${result.entries.toLocaleString('en-US')} entries, ${mb(result.bytes)} of files), ${engine} | ${s(result.import.ms)} (server CPU ${s(result.import.cpuMs)}), RSS +${mb(result.import.growth)} | ≤ 60 s, ≤ +200 MB | ${result.import.ms <= 60_000 && result.import.growth <= 200 * 2 ** 20 ? 'met' : '**missed**'} |`,
  ];
  if (result.replace)
    rows.push(
      `| Its replacement by the same files (a second generation, then the first deleted), ${engine} | ${s(result.replace.ms)} (server CPU ${s(result.replace.cpuMs)}), RSS +${mb(result.replace.growth)} | informational | |`,
    );
  return rows;
}
