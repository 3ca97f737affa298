// The processes `npm test` starts, and what it must undo however it ends: a failed check, Ctrl-C, or a CI
// timeout's SIGTERM. Each child runs in its own process group, so that one signal reaches everything it
// started (npx, Jest's workers, the servers the API tests boot), not just the shell in front of it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const running = new Set();
const cleanups = [];
/** The signal that stopped the run, if one did: no new child starts after it. */
let stopSignal = null;
/** How long children get to stop on their own (Playwright stops its web servers) before SIGKILL. */
const GRACE_MS = 15_000;

/** Registers something to undo at the end, whichever way the run ends; the last registered runs first. */
export function onCleanup(fn) {
  cleanups.unshift(fn);
}

/** Where each command's shell writes the CPU time of everything it waited for (its `times`). */
const cpuDir = mkdtempSync(join(tmpdir(), 'lingonovel-cpu-'));
onCleanup(() => rmSync(cpuDir, { recursive: true, force: true }));
let commands = 0;

/** Seconds from the second line of a POSIX shell's `times` ("0m1.50s 0m0.20s": its children's user, system). */
function childrenCpuSeconds(file) {
  try {
    const line = readFileSync(file, 'utf8').trim().split('\n')[1] ?? '';
    return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
      (sum, [, m, s]) => sum + 60 * Number(m) + Number(s),
      0,
    );
  } catch {
    return null;
  }
}

/**
 * Runs a shell command. With `capture`, its output is kept and returned instead of shown as it comes.
 * Resolves with the exit status (null when a signal ended it) and the CPU seconds the command and every
 * process it waited for used (Jest's workers, Chromium; not a daemon such as the PostgreSQL cluster).
 */
export function run(command, { env, capture = false }) {
  return new Promise((resolve) => {
    if (stopSignal) return resolve({ status: null, output: '', cpu: null });
    const cpuFile = join(cpuDir, String(++commands));
    const timed = `${command}\nstatus=$?; times > '${cpuFile}'; exit $status`;
    const child = spawn(timed, {
      shell: true,
      env,
      detached: true,
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (status) => {
      running.delete(child);
      resolve({ status, output, cpu: childrenCpuSeconds(cpuFile) });
    });
  });
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Asks every child still running to stop, then kills what is left of their groups after the grace time. */
async function stopChildren() {
  const children = [...running];
  if (children.length === 0) return;
  // SIGINT, as Ctrl-C would send: Playwright and Jest treat it as a request to stop cleanly.
  for (const child of children) signalGroup(child, 'SIGINT');
  const closed = Promise.all(children.map((child) => new Promise((r) => child.once('close', r))));
  let timer;
  await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, GRACE_MS)))]);
  clearTimeout(timer);
  for (const child of children) signalGroup(child, 'SIGKILL');
}

/** Stops every child still running, then runs the cleanups. Safe to call more than once. */
export async function cleanUp() {
  await stopChildren();
  while (cleanups.length) {
    const fn = cleanups.shift();
    try {
      await fn();
    } catch (error) {
      console.error(`Cleanup failed: ${error.message}`);
    }
  }
}

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** The exit code of a run stopped by a signal (128 + its number), or null while no signal came. */
export function stoppedExitCode() {
  return stopSignal && EXIT_CODES[stopSignal];
}

/**
 * On SIGINT, SIGTERM or SIGHUP, stops the children and starts no more; the run then ends through its
 * usual path, which cleans up. Without this, Ctrl-C would leave the database cluster running.
 */
export function stopOnSignals() {
  for (const signal of Object.keys(EXIT_CODES)) {
    process.on(signal, () => {
      if (stopSignal) return console.error(`${signal} again: still cleaning up, a few more seconds…`);
      stopSignal = signal;
      console.error(`\n✖ Stopped by ${signal}: stopping the tests and cleaning up…`);
      void stopChildren();
    });
  }
}
