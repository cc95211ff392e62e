import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/database';
import { adjustableClock, systemClock, type Clock } from './domain/clock';
import { installErrorHandling } from './http/errors';
import { trackRequestIds } from './http/faults';
import { installResponseHeaders } from './http/securityHeaders';
import { loggerOptions, RequestLogController } from './http/logging';
import { createMailer, type Mailer } from './mail/mailer';
import { createMetrics } from './metrics';
import { fileRoutes } from './routes/files';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './routes/metrics';
import { i18nRoutes } from './routes/i18n';
import { apiRoutes } from './routes';
import { distDir } from './paths';
import { serveAssetsFromMemory } from './routes/assetMemory';
import { memberPageHead } from './routes/memberPage';
import { memorialFirstPaint, memorialWarmUp } from './routes/memorialFirstPaint';
import { noteWarmUp } from './routes/noteFirstPaint';
import { START_AFTER_PAINT_CSP_SOURCE } from './routes/startAfterPaint';
import { loadPageRenderer, rendererOnce, type SnapshotRenderer } from './routes/pageRenderer';
import { spaRoutes } from './routes/spa';
import { testClockRoutes } from './routes/testClock';
import { createLocalStore } from './storage/localStore';

/** How long after listening the server loads the snapshot renderer (routes/pageRenderer.ts). */
const RENDERER_LOAD_DELAY_MS = 1000;

/** Largest JSON or form body the API accepts (uploads go to /files with their own cap). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOverrides {
  clock?: Clock;
  mailer?: Mailer;
  /** Serve the built SPA from this folder instead of dist/ (tests). */
  spaRoot?: string;
  /** The snapshot renderer instead of the build's bundle (tests of the served pages). */
  pageRenderer?: (root: string) => Promise<SnapshotRenderer | undefined>;
}

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
}

/** Builds the whole HTTP application on an open, migrated database. Tests call it directly. */
export async function buildApp(
  config: Config,
  database: Database,
  overrides: AppOverrides = {},
): Promise<App> {
  const logController = new RequestLogController();
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: config.production,
    logController,
  });
  logController.attach(app.log);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  trackRequestIds(app);

  const testClock = config.testClockControl ? adjustableClock(config.clockOffsetMs) : undefined;
  const clock = overrides.clock ?? testClock ?? systemClock(config.clockOffsetMs);
  const localStore = createLocalStore({
    root: path.join(config.dataDir, 'files'),
    publicUrl: config.publicUrl,
    secret: config.authSecret,
    clock,
  });
  // The AWS SDK takes about a second to load: only an instance configured for S3 pays for it.
  const s3Store = config.s3
    ? (await import('./storage/s3Store')).createS3Store(config.s3, clock)
    : undefined;
  const ctx: AppContext = {
    config,
    database,
    clock,
    mailer:
      overrides.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        log: app.log,
      }),
    metrics: createMetrics(),
    // Uploads go to S3 when it is configured; /files/* then serves nothing anyone was given.
    store: s3Store ?? localStore,
    log: app.log,
  };

  // Browsers fetch and upload S3 objects directly through presigned URLs.
  const objectStoreOrigins = s3Store ? [await s3Store.origin()] : [];
  installResponseHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The one inline script: the start of the app's code on a page drawn by the server.
        scriptSrc: ["'self'", START_AFTER_PAINT_CSP_SOURCE],
        // styled-components writes its rules into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...objectStoreOrigins],
        connectSrc: ["'self'", ...objectStoreOrigins],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    hsts: config.publicUrl.startsWith('https:')
      ? { maxAge: 31536000, includeSubDomains: true }
      : false,
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  });
  const distRoot = overrides.spaRoot ?? distDir;
  serveAssetsFromMemory(app, distRoot);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: BODY_LIMIT_BYTES });

  await metricsRoutes(app, ctx);
  await app.register(async (scope) => healthRoutes(scope, ctx));
  await app.register(async (scope) => i18nRoutes(scope, { production: config.production }));
  await app.register(async (scope) => fileRoutes(scope, localStore));
  await app.register(async (scope) => apiRoutes(scope, ctx));
  if (testClock && !overrides.clock) {
    await app.register(async (scope) => testClockRoutes(scope, testClock));
  }
  const renderer = rendererOnce(
    () =>
      overrides.pageRenderer
        ? overrides.pageRenderer(distRoot)
        : loadPageRenderer(distRoot, [memorialWarmUp(), noteWarmUp()]),
    app.log,
  );
  // Loaded a second after the server listens: the first visitor does not wait for it, and
  // its 100-200 ms of compiling do not hold back the first answers of a starting server
  // (cold start is measured to the first /healthz).
  app.addHook('onListen', async () => {
    setTimeout(() => void renderer(), RENDERER_LOAD_DELAY_MS).unref();
  });
  await spaRoutes(app, {
    root: distRoot,
    memberHead: (root) => memberPageHead(ctx, root, renderer),
    firstPaint: () => memorialFirstPaint(ctx, renderer),
  });

  return { app, ctx };
}
