import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../platform/paths';

/** The built logger (npm test builds first), in a process of its own that ends as a server may end. */
const LOGGER = join(PROJECT_ROOT, 'dist', 'app', 'server', 'http', 'app-logger.js');

function endAfterTwoLines(ending: string) {
  const script = `
    const { AppLogger } = require(${JSON.stringify(LOGGER)});
    const logger = new AppLogger({ colors: false });
    logger.log('first', 'HTTP');
    logger.log('second', 'HTTP');
    ${ending}`;
  return spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
}

describe('log lines held for the end of the turn', () => {
  it.each([
    ['process.exit', 'process.exit(3)', 3],
    ['an uncaught exception', "throw new Error('crash')", 1],
    ['a natural end', '', 0],
  ])('are all written when the process ends by %s', (_, ending, status) => {
    const result = endAfterTwoLines(ending);
    expect(result.status).toBe(status);
    expect(result.stdout).toMatch(/\[HTTP\] first\n.*\[HTTP\] second\n$/);
  });
});
