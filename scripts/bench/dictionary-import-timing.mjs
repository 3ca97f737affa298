// Importing a large dictionary: Debian's dict-freedict-deu-eng (a 12.7 MB .index and a 16.8 MB .dict.dz,
// about half a million entries) through the built server's admin API, timed from the first byte sent to
// the answer, with the server's RSS sampled meanwhile (docs/dictionaries.md, "Bounds"; the targets are
// 60 s and 200 MB of growth).
//
// Alone: `node scripts/bench/dictionary-import-timing.mjs` runs the built server (npm run build:server)
// on a temporary STORAGE_DIR, on SQLite, or on PostgreSQL with DATABASE_URL set (an empty database).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminHeaders } from './import-timing.mjs';

export const FREEDICT_DIR = '/usr/share/dictd';
export const INSTALL_HINT = 'Install it with: sudo apt-get install -y dict-freedict-deu-eng';

/** The server's resident memory, in bytes (Linux). */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
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
    try {
      const res = await fetch(`${base}/api/v1/${path}`, { method, headers: auth, body: form });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      const answer = (await res.json()).data;
      return { ms: performance.now() - started, growth: Math.max(0, peak - before), answer };
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
    import: { ms: created.ms, growth: created.growth },
    replace: replaced && { ms: replaced.ms, growth: replaced.growth },
  };
}

/** The bench's rows (docs/benchmarks.md), from measureDictionaryImport's answer. */
export function dictionaryImportMarkdown(result, engine) {
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const mb = (n) => `${(n / 2 ** 20).toFixed(1)} MB`;
  const rows = [
    `| Import of FreeDict German-English (${result.entries.toLocaleString('en-US')} entries, ${mb(result.bytes)} of files), ${engine} | ${s(result.import.ms)}, RSS +${mb(result.import.growth)} | ≤ 60 s, ≤ +200 MB | ${result.import.ms <= 60_000 && result.import.growth <= 200 * 2 ** 20 ? 'met' : '**missed**'} |`,
  ];
  if (result.replace)
    rows.push(
      `| Its replacement by the same files (a second generation, then the first deleted), ${engine} | ${s(result.replace.ms)}, RSS +${mb(result.replace.growth)} | informational | |`,
    );
  return rows;
}

/** Runs the built server alone on a temporary STORAGE_DIR and measures one import (and its replacement). */
async function main() {
  const root = new URL('../..', import.meta.url).pathname;
  const port = Number(process.env.BENCH_PORT ?? 4733);
  const base = `http://127.0.0.1:${port}`;
  const storage = mkdtempSync(join(tmpdir(), 'lingonovel-bench-dict-'));
  const child = spawn(process.execPath, [join(root, 'dist/app/server/main.js'), '--demo'], {
    env: { ...process.env, STORAGE_DIR: storage, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const up = await fetch(`${base}/api/v1/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (up && existsSync(join(storage, 'demo-admin.json'))) break;
      if (i > 480) throw new Error('the server did not start within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const result = await measureDictionaryImport(base, await adminHeaders(base, storage), child.pid, {
      replace: true,
    });
    const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
    console.log(JSON.stringify(result));
    console.log(dictionaryImportMarkdown(result, engine).join('\n'));
  } finally {
    await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));
    rmSync(storage, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
