import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MEDIA_STORE } from '../media/store/create-stores';
import type { MediaStore } from '../media/store/media-store';

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
    @Inject(MEDIA_STORE) private readonly media: MediaStore,
  ) {}

  async run(): Promise<{ database: CheckState; media: CheckState }> {
    const [database, media] = await Promise.all([
      withTimeout(this.db.query('SELECT 1')),
      withTimeout(this.media.check()),
    ]);
    return { database, media };
  }
}
