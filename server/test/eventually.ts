import { scaled } from '../../scripts/test-limits.cjs';

/**
 * Polls until `check` holds, as a client would, and answers how many milliseconds it took. The limit is
 * generous (the work happens in the background, on a machine that may be loaded, scripts/test-limits.cjs):
 * a test proves that something happens, not how fast; speed is for `npm run bench`.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what = 'the condition',
  ms = scaled(30_000),
): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Date.now() - started;
}
