import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project root: the folder of package.json, found from here whether running compiled or under ts-jest. */
function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findRoot(__dirname);
export const SITE_BUILD_DIR = join(PROJECT_ROOT, 'dist', 'web');
export const DEMO_DIR = join(PROJECT_ROOT, 'server', 'seed', 'demo');
