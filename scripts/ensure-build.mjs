// Builds the server and the site when the build is missing or older than any of its sources.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', '.build-stamp');
// Not package-lock.json: npm install rewrites it without changing what is built, and a rewritten lockfile
// must not cost a rebuild. A dependency change goes through package.json.
const sources = [
  'server',
  'site',
  'astro.config.mjs',
  'tsconfig.json',
  'package.json',
  'scripts/build-sw.mjs',
];
const outputs = ['dist/app/server/main.js', 'dist/web/server/entry.mjs', 'dist/web/client/sw.js'];

function newest(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const info = statSync(full);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(full)) {
    if (entry === 'node_modules' || entry === 'test') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

const built = existsSync(stamp) && outputs.every((file) => existsSync(join(root, file)));
const stale = !built || Math.max(...sources.map(newest)) > statSync(stamp).mtimeMs;

if (stale) {
  console.log(built ? 'Sources changed since the last build: building…' : 'No build found: building…');
  execSync('npm run build', {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  writeFileSync(stamp, new Date().toISOString() + '\n');
}
