// Whether dist/ was built from the sources as they are now (docs/upgrading.md). Imported by
// ensure-build.mjs, which builds when it is not; run as a script:
//   node scripts/build-state.mjs --stamp   records a finished build (the end of `npm run build`);
//   node scripts/build-state.mjs --check   refuses, with the command to run, a build older than the
//                                          checkout (`npm run serve` after a `git pull`).
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const STAMP = join(root, 'dist', '.build-stamp');
// Not package-lock.json: npm install rewrites it without changing what is built, and a rewritten lockfile
// must not cost a rebuild. A dependency change goes through package.json.
const SOURCES = [
  'server',
  'site',
  'astro.config.mjs',
  'tsconfig.json',
  'package.json',
  'scripts/build-sw.mjs',
];
const OUTPUTS = ['dist/app/server/main.js', 'dist/web/server/entry.mjs', 'dist/web/client/sw.js'];

function newest(base, path) {
  const full = join(base, path);
  if (!existsSync(full)) return 0;
  const info = statSync(full);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(full)) {
    if (entry === 'node_modules' || entry === 'test') continue;
    latest = Math.max(latest, newest(base, join(path, entry)));
  }
  return latest;
}

/** `missing`: no finished build; `stale`: a source changed after it; `current`. `base`: another checkout (tests). */
export function buildState(base = root) {
  const stamp = join(base, 'dist', '.build-stamp');
  const built = existsSync(stamp) && OUTPUTS.every((file) => existsSync(join(base, file)));
  if (!built) return 'missing';
  return Math.max(...SOURCES.map((path) => newest(base, path))) > statSync(stamp).mtimeMs
    ? 'stale'
    : 'current';
}

export function stamp() {
  writeFileSync(STAMP, new Date().toISOString() + '\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--stamp')) stamp();
  if (process.argv.includes('--check')) {
    const state = buildState();
    if (state !== 'current') {
      console.error(
        state === 'missing'
          ? 'Lingonovel cannot start: there is no build. Run `npm run build`, then start it again.'
          : 'Lingonovel cannot start: the build is older than the checkout (sources changed since, a git pull ' +
              'say). Run `npm run build`, then start it again (docs/upgrading.md).',
      );
      process.exit(1);
    }
  }
}
