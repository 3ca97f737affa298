import { Injectable } from '@nestjs/common';
import { access, constants } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import { MediaService } from '../media/media.service';

export type CheckState = 'ok' | 'unavailable';

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

@Injectable()
export class ReadinessChecks {
  constructor(
    private readonly db: DataSource,
    private readonly media: MediaService,
  ) {}

  async run(): Promise<{ database: CheckState; media: CheckState }> {
    const [database, media] = await Promise.all([
      withTimeout(this.db.query('SELECT 1')),
      withTimeout(access(this.media.mediaDir, constants.W_OK)),
    ]);
    return { database, media };
  }
}
