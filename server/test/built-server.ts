import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { scaled, SERVER_START_MS } from '../../scripts/test-limits.cjs';
import { PROJECT_ROOT } from '../platform/paths';

/** These tests run the built server as a real process: `npm test` builds first. */
export const MAIN = join(PROJECT_ROOT, 'dist', 'app', 'server', 'main.js');

export function run(env: Record<string, string>, args: string[] = []) {
  return spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
}

/**
 * Time a booting server gets to listen, with or without the demo seed (which has taken 85 s on a loaded
 * 2-core machine): under the hook's limit (scripts/test-limits.cjs), so it is stopped before Jest gives up.
 */
const START_MS = SERVER_START_MS - scaled(20_000);
export const SEEDING_HOOK_MS = SERVER_START_MS;

export async function boot(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, PORT: '0', ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    // A server that never says it listens is stopped, so the test run can end.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, START_MS);
    const check = () => {
      const match = /Listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, url, output: () => output };
}

export const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    // Gone already (a crash the test then reports): nothing more will come.
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    // 'close', not 'exit': the output's pipes are read to their end, its last lines included (or a few
    // seconds after the exit, should something the server started still hold them).
    child.once('close', () => resolve());
    child.once('exit', () => setTimeout(resolve, 5_000).unref());
    child.kill('SIGTERM');
  });

export function assertBuilt(): void {
  if (!existsSync(MAIN)) throw new Error('Build first: npm run build (npm test does it for you)');
}
