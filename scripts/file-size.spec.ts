import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * No source file of the product grows past 400 lines: past that, a file holds more than one
 * responsibility, and it is split by responsibility (docs/architecture.md, "Contexts and their walls").
 * Tests, the demo's data and scripts/ (the bench, the test runner) are not held to it.
 */
const LIMIT = 400;
const ROOT = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['test', 'demo', 'node_modules'].includes(entry.name) ? [] : sources(path);
    return /\.(ts|tsx|astro|css|mjs)$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

it(`keeps every source file of the server and the site under ${LIMIT} lines`, () => {
  const files = ['server', 'site'].flatMap((dir) => sources(join(ROOT, dir)));
  expect(files.length).toBeGreaterThan(300);
  const long = files
    .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > LIMIT)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(long).toEqual([]);
});
