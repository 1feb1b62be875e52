import path from 'node:path';
import {
  authenticate,
  createAccounts,
  createAuthHook,
  findTeam,
  loadPlans,
  type Plan,
  type PlanId,
  planOfTeam,
  UsageService,
} from './accounts/index.js';
import { createBatches } from './batches/index.js';
import { createBrand } from './brand/index.js';
import { createCertificates } from './certificates/index.js';
import { type Config, derivePublicUrl } from './config/config.js';
import { registerDocsRoutes, registerOpenApi } from './docs/index.js';
import { createDocuments, LinkSigner } from './documents/index.js';
import { createEInvoiceInbound } from './einvoice-inbound/index.js';
import { createEmail, createEmailSender, EMAIL_JOB, EmailDelivery, type EmailSender } from './email/index.js';
import { PROTECT_PASSWORDS_PURPOSE } from './finishing/index.js';
import { registerHealthRoutes, registerVersionRoute } from './http/health-routes.js';
import { compileRouteSchemas } from './http/schema-warm-up.js';
import { type App, createServer } from './http/server.js';
import { IdempotencyStore } from './idempotency/index.js';
import {
  type Background,
  enqueueJob,
  type JobDefinition,
  JobRegistry,
  jobInput,
  processPools,
  startBackground,
  sweepFinishedJobs,
} from './jobs/index.js';
import { LiquidEngine } from './liquid/index.js';
import {
  holdsMetricsToken,
  instrumentRenderer,
  metricsAccess,
  QuireMetrics,
  registerMetricsRoutes,
} from './metrics/index.js';
import { createPdf } from './pdf/index.js';
import { createAdmission, createProduction } from './production/index.js';
import { type EarlyRenderer, makeThumbnail, RenderService, resolvePageOptions } from './render/index.js';
import type { Capability } from './shared/capability.js';
import { type Clock, systemClock } from './shared/clock.js';
import { MemoryRateCounter, type RateCounter } from './shared/rate-counter.js';
import { Sweeper } from './shared/sweeper.js';
import { MemoryTeamSlots } from './shared/team-slots.js';
import { quireCommit, quireVersion } from './shared/version.js';
import {
  type BlobStore,
  DatabaseRateCounter,
  DatabaseTeamSlots,
  type Db,
  loadServerSecret,
  openBlobStore,
  openDatabase,
} from './storage/index.js';
import { createTemplates, mergeData, templatePortOf } from './templates/index.js';
import { UntrustedFiles } from './untrusted/index.js';
import { createSessionLookup, createUsers, httpsTest } from './users/index.js';
import { registerWebApp } from './web/index.js';
import { createSecretBox, createWebhooks, type Resolver } from './webhooks/index.js';

/**
 * What the composition root hands to the CLI and the tests. Capabilities never see this: each receives
 * the few ports it declares.
 */
export interface AppServices {
  config: Config;
  clock: Clock;
  db: Db;
  blobs: BlobStore;
  plans: Record<PlanId, Plan>;
  rate: RateCounter;
  /** Base of signed links and docs_url; known for sure only after listen when the port is 0. */
  publicUrl(): string;
  /** Retention sweeps of every capability (tests call `sweeper.runOnce()`). */
  sweeper: Sweeper;
  /** The process's Chromium (stats for operators and tests). */
  renderer: RenderService;
  /** The Liquid worker pool (stats for tests). */
  liquid: LiquidEngine;
}

export interface BuiltApp {
  app: App;
  services: AppServices;
  /** Background jobs and webhook deliveries of this process. */
  background: Background;

  /** Stops accepting requests, finishes in-flight ones, then closes background parts and the database. */
  close(): Promise<void>;
}

export interface BuildOptions {
  clock?: Clock;
  /** Start Chromium now rather than on the first render (the server does; most tests need not). */
  warmRenderer?: boolean;
  /** A renderer already starting (`quire serve` launches Chromium before it loads the service). */
  earlyRenderer?: EarlyRenderer;
  /**
   * Do the first PDF request's one-time work at start, while Chromium boots: compile the POST /v1/pdf
   * schemas and start a Liquid worker (the server does; tests need not).
   */
  warmUp?: boolean;
  /** Run the periodic retention sweep (tests call `services.sweeper.runOnce()` instead). */
  startSweeper?: boolean;
  /** Test seams for background work: a capturing email sender, a long job poll, a fake DNS. */
  email?: EmailSender;
  jobPollMs?: number;
  resolveHost?: Resolver;
  /** Free bytes on the data directory's file system (tests simulate a full disk). */
  freeDiskBytes?: (dir: string) => number;
  /**
   * The Liquid time limit (the spec's 1 s when absent). Test servers on a loaded machine allow more, since a
   * cold worker's first parse of a large template can take a second of wall time there; tests of the limit keep 1 s.
   */
  liquidRenderMs?: number;
}

/** How often, while the server closes, connections that went idle are ended. */
const IDLE_SWEEP_MS = 100;

/** The composition root: construct modules, inject ports, register routes — nothing else. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config.dataDir, config.databaseUrl);
  const state = { publicUrl: derivePublicUrl(config) };
  const publicUrl = () => state.publicUrl;
  const serverSecret = loadServerSecret(config.dataDir);
  // Several processes share one PostgreSQL, so their request budgets live there; one SQLite process counts in memory.
  const rate: RateCounter = config.databaseUrl ? new DatabaseRateCounter(db) : new MemoryRateCounter();
  const plans = loadPlans(config.plansFile);
  const store = await openBlobStore(config.dataDir, config.storage);
  const { blobs } = store;
  const signer = new LinkSigner(serverSecret);
  const app = createServer({
    logLevel: config.logLevel,
    logFormat: config.logFormat,
    publicUrl,
    clock,
    rate,
    ipBudgetPerMin: config.ipRateLimitPerMin,
    trustProxy: config.trustProxy,
  });
  const sweeper = new Sweeper(clock, config.sweepIntervalS * 1000, (name, err) =>
    app.log.error({ err, sweep: name }, 'retention sweep failed'),
  );
  const renderer = options.earlyRenderer?.service ?? new RenderService(config, app.log);
  options.earlyRenderer?.log.attach(app.log);
  const access = metricsAccess(config.metrics, config.metricsToken);
  const metrics = access.kind === 'off' ? null : new QuireMetrics(db, renderer);
  if (metrics) registerMetricsRoutes(app, metrics, access);
  const liquid = new LiquidEngine({
    renderMs: options.liquidRenderMs,
    onWorkerError: (err) => app.log.error({ err }, 'Liquid worker failed outside a render'),
  });
  const usage = new UsageService({
    db,
    plans,
    holdTtlMs: config.renderLeaseTtlMs,
    onError: (err) => app.log.error({ err }, 'usage reservation heartbeat failed'),
  });
  // Reservations a killed process held (issue: a direct render's count leaked until the period ended).
  await usage.recoverHolds({ everyOtherHolder: !config.databaseUrl, heartbeat: Boolean(config.databaseUrl) });
  const documents = createDocuments({
    db,
    clock,
    blobs,
    signer,
    publicUrl,
    makeThumbnail,
    usage,
  });
  // Uploaded files (spreadsheets, logos, fonts) are read on a pool of their own, never on this thread.
  const untrusted = new UntrustedFiles({
    onWorkerError: (err) => app.log.error({ err }, 'Untrusted-file worker failed outside a task'),
  });
  const brand = createBrand({ db, blobs, clock, rate, signer, publicUrl, untrusted });
  const certificates = createCertificates({
    db,
    clock,
    box: createSecretBox(serverSecret, 'quire certificate keys v1'),
    reader: untrusted,
    ...(config.tsaUrl ? { timestampUrl: config.tsaUrl } : {}),
  });
  const planOf = (teamId: string) => planOfTeam(db, plans, teamId);
  // `protect` passwords of queued requests and templates: stored only sealed (finishing/sealed-protect.ts).
  const passwords = createSecretBox(serverSecret, PROTECT_PASSWORDS_PURPOSE);
  const delivery = new EmailDelivery({
    db,
    clock,
    emailVerified: async (teamId) => (await findTeam(db, teamId))?.emailVerified ?? null,
    enqueueSend: async (trx, input) => {
      // No team id: an email follows a document already counted, so it is not background work of the
      // team's own (open_jobs / test_jobs_per_day count renders only); emails have their own daily limits.
      await enqueueJob(
        trx,
        clock,
        jobInput(EMAIL_JOB, { teamId: null, test: input.test, payload: { emailId: input.emailId } }),
      );
    },
  });
  const templatePort = templatePortOf({ db, passwords }, liquid);
  // Several processes share one PostgreSQL: the team's render slots are leases in it (one process: memory).
  const slots = config.databaseUrl
    ? new DatabaseTeamSlots(db, {
        ttlMs: config.renderLeaseTtlMs,
        onError: (err) => app.log.error({ err }, 'render slot lease failed'),
      })
    : new MemoryTeamSlots();
  const production = createProduction({
    clock,
    renderer: metrics ? instrumentRenderer(renderer, metrics) : renderer,
    liquid: {
      renderSource: async (source, data) => liquid.renderSource(source, data),
      check: async (source) => liquid.check(source),
    },
    templates: templatePort,
    pageOptions: (request, settings, fallback) => resolvePageOptions(request, settings ?? {}, fallback),
    mergeData,
    brand: brand.port,
    slots,
    blobs,
    ledger: documents.ledger,
    lifecycle: documents.lifecycle,
    admission: createAdmission({
      clock,
      usage,
      ledger: documents.ledger,
      delivery,
      maxPreparing: config.maxPreparing,
      dataDir: config.dataDir,
      minFreeBytes: config.minFreeDiskMb * 1024 * 1024,
      ...(options.freeDiskBytes ? { freeBytes: options.freeDiskBytes } : {}),
    }),
    delivery,
    certificates: certificates.port,
    findDocument: documents.findById,
    storedPdfs: {
      find: async (teamId, id) => {
        const row = await documents.findForTeam(teamId, id);
        return row
          ? {
              status: row.status,
              test: row.test === 1,
              contentType: row.content_type,
              bytes: row.bytes,
              read: () => documents.readStoredFile(row),
            }
          : null;
      },
    },
    planOf,
    passwords,
  });
  const idempotency = new IdempotencyStore({ db, clock });
  const templates = createTemplates({
    services: { db, blobs, clock, rate, publicUrl, signer, passwords },
    engine: liquid,
    production,
    planOf,
    make: makeThumbnail,
  });
  const email =
    options.email ??
    createEmailSender({
      smtpUrl: config.smtpUrl,
      smtpInsecure: config.smtpInsecure,
      from: config.smtpFrom,
      log: app.log,
      outboxDir: path.join(config.dataDir, 'outbox'),
    });
  const box = createSecretBox(serverSecret);
  // Jobs queued by a request wake this process's workers (started below, once every kind is known).
  const wakeJobs = () => background.wake();
  const batches = createBatches({
    db,
    clock,
    blobs,
    signer,
    publicUrl,
    production,
    documents: { present: documents.present, findById: documents.findById },
    planOf,
    idempotency,
    wakeJobs,
    untrusted,
    templates: templatePort,
  });
  const mail = { sender: email, publicUrl, log: app.log };
  const https = httpsTest(publicUrl);
  const einvoiceInbound = createEInvoiceInbound({
    rate,
    clock,
    timeMs: config.einvoiceCheckTimeoutMs,
    onWorkerError: (err) => app.log.error({ err }, 'E-invoice worker failed outside a task'),
  });
  const webhooks = createWebhooks({
    db,
    clock,
    rate,
    box,
    allowPrivate: config.allowPrivateWebhooks,
    timeoutMs: config.webhookTimeoutMs,
    email,
    log: app.log,
    ...(options.resolveHost ? { resolve: options.resolveHost } : {}),
    wakeDeliveries: wakeJobs,
  });
  // The order of routes in the OpenAPI document: signed routes of each, then the authenticated ones.
  const capabilities: Capability<App, JobDefinition>[] = [
    createAccounts({ db, clock, usage, testDocumentsPerDay: documents.ledger.testDocumentsPerDay }),
    createUsers({ db, clock, rate, mail, https, invitationsPerDay: config.invitationsPerDay }),
    documents,
    createPdf({ production, idempotency, documents, wakeJobs }),
    templates,
    brand,
    certificates,
    batches,
    einvoiceInbound,
    webhooks,
    // A batch item's final state may complete its batch (the render job's extension point).
    { jobs: [production.renderJob({ afterFinal: batches.afterItemFinal })] },
    createEmail({
      clock,
      sender: email,
      documents: {
        file: async (documentId) => {
          const row = await documents.findById(db, documentId);
          const content = row ? await documents.readStoredFile(row) : null;
          return row && content ? { content, filename: row.filename, contentType: row.content_type } : null;
        },
        setDelivery: (trx, documentId, state) => documents.lifecycle.setDelivery(trx, documentId, state),
      },
    }),
  ];
  const jobs = capabilities.flatMap((capability) => capability.jobs ?? []);
  const registry = new JobRegistry();
  for (const job of jobs) registry.register(job.kind, job.handler, job.options);
  // Heavy kinds run on config.workers; light ones in every process, even with QUIRE_WORKERS=0.
  const background = startBackground({
    db,
    clock,
    registry,
    pools: processPools({ jobs, heavyWorkers: config.workers }),
    log: app.log,
    leaseMs: config.jobLeaseMs,
    ...(options.jobPollMs === undefined ? {} : { pollMs: options.jobPollMs }),
  });
  sweeper.add('jobs', () => sweepFinishedJobs(db, clock));
  sweeper.add('idempotency-keys', (now) => idempotency.sweep(now));
  for (const sweep of capabilities.flatMap((capability) => capability.sweeps ?? []))
    sweeper.add(sweep.name, sweep.run);
  await registerOpenApi(app, publicUrl);
  registerHealthRoutes(app, db, renderer, blobs);
  registerVersionRoute(
    app,
    async () => ({
      version: quireVersion(),
      commit: quireCommit(),
      chromium: (await renderer.stats())?.chromiumVersion ?? null,
    }),
    async (authorization) =>
      holdsMetricsToken(access, authorization) || (await authenticate(db, authorization)).ok,
  );
  await app.register(
    async (v1) => {
      for (const capability of capabilities) capability.signedRoutes?.(v1);
      await v1.register(async (authed) => {
        authed.addHook(
          'onRequest',
          createAuthHook({
            db,
            clock,
            plans,
            rate,
            testKeyRatePerMin: config.testKeyRatePerMin,
            sessions: createSessionLookup(db, clock, https),
          }),
        );
        for (const capability of capabilities) capability.routes?.(authed);
      });
    },
    { prefix: '/v1' },
  );
  await registerDocsRoutes(app, { publicUrl, version: quireVersion() });
  await registerWebApp(app, undefined, publicUrl);
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') state.publicUrl = derivePublicUrl(config, address.port);
  });
  // Off the critical path: the main thread and a worker thread would otherwise wait for Chromium here.
  // The routes exist only once Fastify has loaded its plugins, so that comes first (ready() before
  // listen() is allowed; nothing is added to the server after buildApp).
  if (options.warmUp) {
    await app.ready();
    compileRouteSchemas('POST', '/v1/pdf');
  }
  const liquidWarm = options.warmUp
    ? liquid.warm().catch((err: unknown) => app.log.warn({ err }, 'Liquid warm-up failed'))
    : null;
  if (options.warmRenderer ?? true) await renderer.warm();
  await liquidWarm;
  if (options.startSweeper ?? true) sweeper.start();
  return {
    app,
    services: { config, clock, db, blobs, plans, rate, publicUrl, sweeper, renderer, liquid },
    background,
    close: async () => {
      renderer.beginShutdown();
      // Closing the server ends only the connections idle at that moment: a keep-alive connection whose
      // response finishes a moment later (a download whose last bytes the client already has) would hold
      // the close for Fastify's 72 s keep-alive timeout, so idle ones are looked for until it is closed.
      const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
      // Requests and background jobs drain together within the one grace period; jobs still running at
      // its end go back to the queue. Chromium closes only after both.
      try {
        await Promise.all([app.close(), background.stop(config.shutdownGraceMs)]);
      } finally {
        clearInterval(idle);
      }
      await slots.close().catch((err: unknown) => app.log.error({ err }, 'render slots not released'));
      await sweeper.stop();
      usage.stop();
      await webhooks.close();
      email.close();
      await renderer.close();
      await liquid.close();
      await untrusted.close();
      await einvoiceInbound.close();
      store.close();
      await db.destroy();
    },
  };
}
