import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import compression from 'compression';
import { Logger, type LoggerService, type LogLevel } from '@nestjs/common';
import { AppModule } from '../app.module';
import type { AppConfig } from '../platform/config';
import { appLogger } from './app-logger';
import { requestContext } from './request-context';
import { methodOverride } from './method-override';
import { closeUnreadBodies } from './body/unread-body';
import { healthAliases } from '../health/health-aliases';
import { noStore, securityHeaderLists, securityHeaders } from './security-headers';
import { privateNoStore } from '../publishing/downloads/private-no-store';
import { MediaService } from '../platform/media/media.service';
import { MEDIA_ROUTE } from '../platform/media/media-urls';
import { MEDIA_STORE } from '../platform/media/store/create-stores';
import { mediaFiles, IMMUTABLE } from '../platform/media/serve/media-files';
import { CatalogueService } from '../content/catalogue/catalogue.service';
import { mountSite } from './pages';
import { clipGate } from '../content/access/clip-gate';
import { SignedLinks } from '../platform/common/signed-links';
import { MediaIndex } from '../content/access/media-index';
import { ReadingService } from '../learning/reading/reading.service';
import { inlineScriptHashes } from './script-hashes';
import { PageCache } from './page-cache';
import { cachedRoute } from './cached-route';
import { apiRoutes, PAGE_ROUTES } from './query-rules';
import { TranslationIndex } from '../content/catalogue/translation-index';
import { cachedHits, GUEST_API, serveCachedHitsFirst } from './cached-hits';
import type { TrustFn } from './request-context';
import { sitemapRoute } from './sitemap-route';
import { Sitemaps } from '../content/catalogue/sitemap';
import { CatalogueEvents } from '../content/catalogue/catalogue-events';
import { prepareDatabase } from '../platform/database/prepare';
import { buildOpenApi, mountOpenApi } from './openapi';
import { answerProblems, PROBLEM_DETAILS_PATH } from './problem-details';
import { InstanceLock } from '../platform/database/instance-lock';
import { keepConnectionsOpen } from './keep-alive';

export interface AppOptions {
  /** Serve the Astro pages too. API tests run without them, so they need no site build. */
  pages: boolean;
  logger?: LoggerService | LogLevel[] | false;
}

export const API_PREFIX = 'api/v1';

/** Builds the one process: API, media and pages. Everything is mounted before `listen`. */
export async function createApp(config: AppConfig, options: AppOptions): Promise<NestExpressApplication> {
  // Set before anything logs, so that what is logged before Nest starts has the chosen format too.
  const logger = options.logger ?? appLogger(config.logFormat);
  Logger.overrideLogger(logger);
  // With SQLite, one process per STORAGE_DIR: refused before anything is written. Then the migrations
  // (under a lock when instances share PostgreSQL) and the shared session secret.
  const instanceLock = InstanceLock.acquire(config);
  try {
    await prepareDatabase(config);
    if (config.databaseUrl && config.mediaStore.kind === 'local')
      new Logger('Lingonovel').warn(
        'PostgreSQL with media in STORAGE_DIR: fine for one instance, but several need MEDIA_STORE=s3, ' +
          'or each serves only its own uploads (docs/scaling.md).',
      );
    return await assemble(config, { ...options, logger }, instanceLock);
  } catch (error) {
    instanceLock.release();
    throw error;
  }
}

async function assemble(
  config: AppConfig,
  options: AppOptions,
  instanceLock: InstanceLock,
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, instanceLock), {
    logger: options.logger,
    // Throw instead of exiting, so that main.ts and the tests see the error.
    abortOnError: false,
    // Bodies are read after the guards, by server/http/body/, never before: see closeUnreadBodies.
    bodyParser: false,
  });
  app.disable('x-powered-by');
  // Whose X-Forwarded-For gives the client's address (rate limits, logs): TRUST_PROXY, docs/scaling.md.
  app.set('trust proxy', config.trustProxy);
  app.setGlobalPrefix(API_PREFIX);
  app.enableShutdownHooks();

  app.use(closeUnreadBodies);
  app.use(healthAliases);
  app.use(requestContext(config.logFormat));
  app.use(methodOverride);
  app.use(compression());
  const security = securityHeaderLists(options.pages ? await inlineScriptHashes() : [], config.publicUrl);
  app.use(securityHeaders(security));
  // Account and admin answers are private to one user: no browser or proxy may keep them.
  app.use(['/api/v1/user', '/api/v1/admin'], noStore);
  // Downloads give each caller their own edition (docs/formats.md "Downloads").
  app.use('/api/v1/downloads', privateNoStore);
  app.use('/api/v1/opds', privateNoStore); // OPDS feeds, per reader too (docs/formats.md "OPDS 1.2")
  // Their errors as problem details, not `{ message }` under a feed's type (docs/formats.md "OPDS 1.2").
  app.use(PROBLEM_DETAILS_PATH, answerProblems);

  await app.get(MediaService).ensureFolders();
  app.use(
    MEDIA_ROUTE,
    // Clips of locked chapters need a signed URL and are kept out of shared caches (server/learning/reading/).
    // Covers and samples get random names and are never rewritten in place, so they never go stale. A
    // file that is not there ends as a 404 nobody keeps (mediaNotFound).
    clipGate(app.get(MediaIndex), app.get(SignedLinks), app.get(MEDIA_STORE), {
      clips: mediaFiles(app.get(MEDIA_STORE), null),
      others: mediaFiles(app.get(MEDIA_STORE), IMMUTABLE),
    }),
  );

  // Public pages and the guest API are rendered once and kept until an admin change clears them.
  const cache = app.get(PageCache);
  app.get(CatalogueEvents).subscribe(() => cache.clear());
  const guestRoutes = apiRoutes(app.get(TranslationIndex));
  const guestApi = cachedRoute(
    cache,
    (_req, _res, _pass, next) => next(),
    (_req, _res, next) => next(),
    guestRoutes,
  );
  app.use((req: Request, res: Response, next: NextFunction) =>
    req.path.startsWith(GUEST_API) ? guestApi(req, res, next) : next(),
  );
  // The API's description (/api/v1/openapi.json) and its readable page (/api/docs).
  mountOpenApi(app, buildOpenApi(app));
  if (options.pages) {
    app.use(sitemapRoute(app.get(Sitemaps), config.publicUrl));
    await mountSite(
      app.getHttpAdapter().getInstance(),
      {
        catalogue: app.get(CatalogueService),
        reading: app.get(ReadingService),
        publicUrl: config.publicUrl,
        payments: { enabled: config.stripe.secretKey !== null, priceId: config.stripe.priceId },
      },
      cache,
    );
  }
  await app.init();
  keepConnectionsOpen(app.getHttpServer());
  // The cache's hits are answered before Express, with the same headers, id, log line and bodies.
  const express = app.getHttpAdapter().getInstance();
  const parseQuery = express.get('query parser fn') as ((query: string) => Request['query']) | undefined;
  serveCachedHitsFirst(
    app.getHttpServer(),
    cachedHits({
      cache,
      api: guestRoutes,
      pages: options.pages ? PAGE_ROUTES : null,
      security,
      logFormat: config.logFormat,
      trustProxy: express.get('trust proxy fn') as TrustFn,
      parseQuery: (query) => parseQuery?.(query) ?? {},
    }),
  );
  return app;
}
