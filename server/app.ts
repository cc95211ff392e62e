import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Endpoint } from '../contract/endpoint';
import type { Config, TrustProxy } from './config';
import type { AppContext } from './context';
import type { Database } from './db/database';
import { adjustableClock, systemClock, type Clock } from './lib/clock';
import { installApiDocument } from './http/apiDocument';
import {
  compiledAnswerSerializer,
  checkAnswersAgainstContract,
  type ContractDrift,
} from './http/endpoints';
import { frameworkErrorOptions, installErrorHandling } from './http/errors';
import { refuseUnstorableText } from './http/hostileText';
import { installDraining, type Draining } from './http/draining';
import { installRateLimits } from './http/rateLimits';
import { trackRequestIds } from './http/faults';
import { installResponseHeaders } from './http/securityHeaders';
import { createSessionCheck, type SessionCheck } from './domain/accounts/sessionCheck';
import { loggerOptions, RequestLogController } from './http/logging';
import { createMailer, type Mailer } from './mail/mailer';
import { connectRedis } from './lib/sharedRedis';
import { createMetrics } from './metrics';
import { fileRoutes } from './routes/files';
import { healthRoutes } from './routes/health';
import { mailReportRoutes } from './routes/mailReports';
import { metricsRoutes } from './routes/metrics';
import { apiRoutes } from './routes';
import { distDir } from './lib/paths';
import { memberPageHead } from './pages/memberPage';
import {
  loadedOnce,
  loadServerRender,
  visitorPages,
  type ServerRender,
} from './pages/visitorPages';
import { spaRoutes } from './pages/spa';
import { testClockRoutes } from './routes/testClock';
import { createFileUrls } from './storage/fileUrls';
import { createLocalStore } from './storage/localStore';
import { withViewUrlCache } from './storage/viewUrls';

/** Largest JSON or form body the API accepts (uploads go to /files with their own cap). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOverrides {
  clock?: Clock;
  mailer?: Mailer;
  /** Serve the built SPA from this folder instead of dist/ (tests). */
  spaRoot?: string;
  /** The server render instead of the build's (tests of the served pages). */
  serverRender?: (root: string) => Promise<ServerRender | undefined>;
  /** Collects every answer that does not keep to its endpoint's contract (the API suite). */
  contractDrifts?: ContractDrift[];
  /**
   * Another per-request session check than the member's session epoch (the bench's figure
   * without it, bench/uncheckedServer.ts). The product never sets it.
   */
  sessions?: SessionCheck;
}

/** One route as registered: its method, its URL pattern and the zod schemas it validates. */
export interface RouteEntry {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  /** The contract's endpoint it serves, if any (contract). */
  endpoint?: Endpoint;
}

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route of the app (HEAD twins left out): the authorisation matrix and fuzz suite walk it. */
  routes: RouteEntry[];
  /** Turns the app to answering 503 while the server stops (server/main.ts). */
  draining: Draining;
}

/**
 * zlib's fast strategy (levels 1-3) for answers compressed per request: a list of signed photo
 * addresses or timeline entries comes out 2-4 % larger than at the default level 6 for
 * 25-40 % less of the CPU it spends compressing (as web servers do for dynamic answers).
 */
const ANSWER_GZIP_LEVEL = 3;

/** Fastify's `trustProxy` for TRUST_PROXY: a number of hops trusts the nearest ones. */
function trustProxyOption(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Builds the whole HTTP application on an open, migrated database. Tests call it directly. */
export async function buildApp(
  config: Config,
  database: Database,
  overrides: AppOverrides = {},
): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Never true: only the proxies named by TRUST_PROXY may say who the client is.
    trustProxy: trustProxyOption(config.trustProxy),
    logController: new RequestLogController(),
    // A stop's 503 is installDraining's, with `{detail, code}` and Retry-After.
    return503OnClosing: false,
    ...frameworkErrorOptions,
  });
  const draining = installDraining(app);
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        const endpoint = route.config?.endpoint;
        routes.push({ method, url: route.url, schema: route.schema, endpoint });
      }
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(compiledAnswerSerializer(overrides.contractDrifts));
  installErrorHandling(app);
  if (overrides.contractDrifts) checkAnswersAgainstContract(app, overrides.contractDrifts);
  refuseUnstorableText(app);
  trackRequestIds(app);

  const testClock = config.testClockControl ? adjustableClock(config.clockOffsetMs) : undefined;
  const clock = overrides.clock ?? testClock ?? systemClock(config.clockOffsetMs);
  const fileUrls = createFileUrls({
    publicUrl: config.publicUrl,
    secret: config.authSecret,
    clock,
  });
  const localStore = createLocalStore({ root: path.join(config.dataDir, 'files'), urls: fileUrls });
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
        logLinks: !config.production,
        log: app.log,
      }),
    metrics: createMetrics(),
    sessions: overrides.sessions ?? createSessionCheck(database, config.sessionCacheTtlMs),
    // Uploads go to S3 when it is configured; /files/* then serves nothing anyone was given.
    store: withViewUrlCache(s3Store ?? localStore, clock),
    redis: config.redisUrl ? connectRedis(config.redisUrl, app.log) : undefined,
    log: app.log,
  };
  app.addHook('onClose', async () => ctx.redis?.close());
  // Counted in Redis from the first request when it answers; a start never waits longer.
  await ctx.redis?.firstAttempt;

  await ctx.sessions.start();
  app.addHook('onClose', () => ctx.sessions.close());

  // Browsers read S3 objects directly through presigned URLs (uploads pass through /files).
  const objectStoreOrigins = s3Store ? [await s3Store.origin()] : [];
  installResponseHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // No inline script: a page rendered on the server carries its data as JSON, not code.
        scriptSrc: ["'self'"],
        // styled-components writes its rules into <style> elements, on the server and at run time.
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
  // JSON answers and pages compressed per request; the build's assets have their copies made once.
  await app.register(fastifyCompress, {
    encodings: ['gzip', 'deflate'],
    customTypes: /^(application\/json|text\/html)/,
    zlibOptions: { level: ANSWER_GZIP_LEVEL },
  });
  await installRateLimits(app, config, ctx.redis);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: BODY_LIMIT_BYTES });

  await installApiDocument(app, { publicUrl: config.publicUrl });
  await metricsRoutes(app, ctx);
  await app.register(async (scope) => healthRoutes(scope, ctx));
  await app.register(async (scope) => fileRoutes(scope, ctx, { urls: fileUrls, localStore }));
  await app.register(async (scope) => apiRoutes(scope, ctx));
  await app.register(async (scope) => mailReportRoutes(scope, ctx));
  if (testClock && !overrides.clock) {
    await app.register(async (scope) => testClockRoutes(scope, testClock));
  }
  const serverRender = loadedOnce(
    () => (overrides.serverRender ?? loadServerRender)(distRoot),
    app.log,
  );
  // Loaded as the server starts listening, not by the first visitor, who would wait for it.
  app.addHook('onListen', async () => {
    void serverRender();
  });
  await spaRoutes(app, {
    root: distRoot,
    memberHead: memberPageHead(ctx),
    visitorPage: visitorPages(ctx, serverRender),
  });

  return { app, ctx, routes, draining };
}
