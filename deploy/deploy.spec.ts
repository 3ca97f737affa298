import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { loadConfig } from '../server/platform/config';

/**
 * Issue 35 (docs/deploy.md, "As a service"): the systemd unit passes `systemd-analyze verify` with nothing
 * to say, is hardened, and its environment file is a configuration the server accepts as it is shipped.
 * deploy/nginx.conf runs in e2e/tls-proxy.spec.ts; the Dockerfile in deploy/test-container.sh.
 */
const unit = readFileSync(join(__dirname, 'lingonovel.service'), 'utf8');
const setting = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]);

describe('the systemd unit', () => {
  it('passes systemd-analyze verify without a warning', () => {
    const folder = mkdtempSync(join(tmpdir(), 'lingonovel-unit-'));
    try {
      // The node this test runs with stands in for /usr/bin/node: verify checks that ExecStart exists.
      const path = join(folder, 'lingonovel.service');
      expect(setting('ExecStart')).toEqual(['/usr/bin/node /opt/lingonovel/dist/app/server/main.js']);
      writeFileSync(path, unit.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
      const verify = spawnSync('systemd-analyze', ['verify', path], { encoding: 'utf8' });
      expect(verify.error).toBeUndefined();
      expect(`${verify.stdout}${verify.stderr}`).toBe('');
      expect(verify.status).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('runs unprivileged on a read-only system, writing only its storage', () => {
    expect(setting('DynamicUser')).toEqual(['yes']);
    expect(setting('ProtectSystem')).toEqual(['strict']);
    expect(setting('NoNewPrivileges')).toEqual(['yes']);
    expect(setting('ProtectHome')).toEqual(['yes']);
    const storage = /STORAGE_DIR=(\S+)/.exec(setting('Environment').join(' '))?.[1];
    expect(storage).toBe('/var/lib/lingonovel');
    expect(setting('ReadWritePaths')).toEqual([storage]);
    expect(setting('StateDirectory')).toEqual(['lingonovel']);
  });
});

describe('the environment file', () => {
  it('is a configuration the server starts with, without a warning', () => {
    const values = parseEnv(readFileSync(join(__dirname, 'lingonovel.env'), 'utf8'));
    const example = readFileSync(join(__dirname, '..', '.env.example'), 'utf8');
    for (const key of Object.keys(values)) expect(example).toMatch(new RegExp(`^# ?${key}=`, 'm'));
    const config = loadConfig({ ...values, STORAGE_DIR: '/var/lib/lingonovel' });
    expect(config.warnings).toEqual([]);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toMatch(/^https:\/\//);
  });
});
