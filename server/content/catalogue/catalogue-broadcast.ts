import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { CatalogueEvents } from './catalogue-events';

export const CATALOGUE_CHANNEL = 'lingonovel_catalogue';
/** The listening connection's name in pg_stat_activity, for operators (and the tests that cut it). */
export const LISTENER_NAME = 'lingonovel-catalogue-listener';
const MAX_RETRY_MS = 30_000;

/**
 * Keeps every instance's caches fresh when several share one PostgreSQL: a change made on one is sent
 * with NOTIFY, and each of the others clears its page cache and locked-clip list when it hears it.
 *
 * LISTEN holds a connection of its own, outside TypeORM's pool. When that connection drops, whatever was
 * sent meanwhile is lost, so after every (re)connection the caches are cleared as if everything changed.
 * SQLite installations run one process and need none of this.
 */
@Injectable()
export class CatalogueBroadcast implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CatalogueBroadcast.name);
  private readonly origin = randomUUID();
  private client: Client | null = null;
  private retryMs = 500;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DataSource,
    private readonly events: CatalogueEvents,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.databaseUrl) return;
    this.events.publishTo((books) => this.publish(books));
    await this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async publish(books: string[]): Promise<void> {
    const payload = JSON.stringify({ origin: this.origin, books });
    // NOTIFY's payload is capped near 8 kB; an empty list means "everything".
    const bounded = payload.length < 7000 ? payload : JSON.stringify({ origin: this.origin, books: [] });
    await this.db.query('SELECT pg_notify($1, $2)', [CATALOGUE_CHANNEL, bounded]);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.config.databaseUrl!,
      application_name: LISTENER_NAME,
    });
    client.on('notification', (message) => void this.heard(message.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${CATALOGUE_CHANNEL}`);
    } catch (error) {
      this.lost(client, error instanceof Error ? error : new Error(String(error)));
      return;
    }
    // The application may have shut down while this connection was being made: do not keep it open.
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 500;
    // Anything sent while this instance was not listening is lost: start from nothing cached.
    await this.events
      .apply([])
      .catch((error: unknown) => this.logger.warn(`Cache clear failed: ${String(error)}`));
  }

  private async heard(payload: string | undefined): Promise<void> {
    let books: string[] = [];
    try {
      const message = JSON.parse(payload ?? '{}') as { origin?: string; books?: string[] };
      if (message.origin === this.origin) return;
      books = Array.isArray(message.books) ? message.books : [];
    } catch {
      // An unreadable notice still means something changed.
    }
    await this.events
      .apply(books)
      .catch((error: unknown) => this.logger.warn(`Cache clear failed: ${String(error)}`));
  }

  /** Called once per lost connection (error and end both fire); reconnects with a growing delay. */
  private lost(client: Client, error: Error | null): void {
    if (client !== this.client && this.client !== null) return;
    if ((client as { lostHandled?: boolean }).lostHandled) return;
    (client as { lostHandled?: boolean }).lostHandled = true;
    this.client = null;
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn(
      `Lost the catalogue notification connection${error ? ` (${String(error)})` : ''}; retrying in ${this.retryMs} ms`,
    );
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
