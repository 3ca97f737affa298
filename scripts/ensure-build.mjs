// Builds the server and the site when the build is missing or older than any of its sources.
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildState } from './build-state.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const state = buildState();

if (state !== 'current') {
  console.log(
    state === 'stale' ? 'Sources changed since the last build: building…' : 'No build found: building…',
  );
  // npm run build stamps the build when it finishes (build-state.mjs --stamp).
  execSync('npm run build', {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
}
