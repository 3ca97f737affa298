import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../platform/config';
import { MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';

export type CheckState = 'ok' | 'unavailable';
export interface Readiness {
  database: CheckState;
  media: CheckState;
}

/** How long a check may take before it counts as down: a hung database must not hang the probe too. */
const CHECK_TIMEOUT_MS = 3_000;

function withTimeout(work: Promise<unknown>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckState>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), CHECK_TIMEOUT_MS);
  });
  return Promise.race([
    work.then((): CheckState => 'ok').catch((): CheckState => 'unavailable'),
    timeout,
  ]).finally(() => clearTimeout(timer));
}

/** Where the probe's objects go: no media route serves this prefix, and each is deleted at once. */
const PROBE_PREFIX = 'probes/';

@Injectable()
export class ReadinessChecks {
  constructor(
    private readonly db: DataSource,
    @Inject(MEDIA_STORE) private readonly media: MediaStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * How long an answer is reused: /readyz is public, and each probe writes to the store (a PUT, GET and
   * DELETE on a bucket), so requests arriving meanwhile or within this time share one probe. Tests lower it.
   */
  reuseMs = 1_000;
  private last: { result: Promise<Readiness>; endedAt: number } | null = null;

  run(): Promise<Readiness> {
    if (this.last && Date.now() < this.last.endedAt + this.reuseMs) return this.last.result;
    const entry = { result: this.probe(), endedAt: Number.POSITIVE_INFINITY };
    // Shared while it runs, then for reuseMs after it ends (read at each request: a change counts at once).
    void entry.result.finally(() => (entry.endedAt = Date.now()));
    this.last = entry;
    return entry.result;
  }

  private async probe(): Promise<Readiness> {
    const [database, media] = await Promise.all([
      withTimeout(this.db.query('SELECT 1')),
      withTimeout(this.probeMedia()),
    ]);
    return { database, media };
  }

  /**
   * The media store takes a write, gives it back and deletes it: a bucket that answers HEAD but refuses
   * writes (a read-only key), or a folder on a full disk, is not ready. The probe object is the store's
   * own kind of object (put from a file, read as a stream), under a prefix nothing serves.
   */
  private async probeMedia(): Promise<void> {
    await this.media.check();
    const token = randomUUID();
    const key = `${PROBE_PREFIX}ready-${token}.txt`;
    const dir = join(this.config.storageDir, 'tmp');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `probe-${token}.txt`);
    await writeFile(file, token);
    try {
      await this.media.put(key, file, 'text/plain');
      const chunks: Buffer[] = [];
      for await (const chunk of await this.media.read(key)) chunks.push(Buffer.from(chunk as Uint8Array));
      if (Buffer.concat(chunks).toString() !== token)
        throw new Error('the media store gave back other bytes');
    } finally {
      await rm(file, { force: true });
      await this.media.delete([key]);
    }
  }
}
