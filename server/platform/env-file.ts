import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './config-error';

/**
 * Settings from a file (docs/configuration.md): `.env` in the working directory, or the file ENV_FILE
 * names, in the dotenv format (`NAME=value`, `#` comments, quoted values). A variable already set in the
 * real environment wins, so `PORT=4000 npm run serve` still means port 4000. Answers the file read, if any.
 * A named file that does not exist stops the start: a typo must not silently boot on the defaults.
 */
export function applyEnvFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | null {
  const named = env.ENV_FILE?.trim();
  const path = resolve(cwd, named || '.env');
  if (!existsSync(path)) {
    if (named) throw new ConfigError(`ENV_FILE names ${path}, which does not exist`);
    return null;
  }
  let values: Record<string, string>;
  try {
    values = parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  } catch (error) {
    throw new ConfigError(`${path} cannot be read: ${(error as Error).message}`);
  }
  for (const [name, value] of Object.entries(values)) if (env[name] === undefined) env[name] = value;
  return path;
}
