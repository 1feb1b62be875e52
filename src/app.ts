import path from 'node:path';
import {
  authenticate,
  createAccounts,
  createAuthHook,
  loadPlans,
  type Plan,
  type PlanId,
  planOfTeam,
  UsageService,
} from './accounts/index.js';
import type { BuildOptions } from './app-options.js';
import { createBatches } from './batches/index.js';
import { createBrand } from './brand/index.js';
import { createCertificates } from './certificates/index.js';
import { type Config, derivePublicUrl } from './config/config.js';
import { registerDocsRoutes, registerOpenApi } from './docs/index.js';
import { createDocuments, LinkSigner } from './documents/index.js';
import { CompiledRules, createEInvoiceInbound, einvoiceRuleSets } from './einvoice-inbound/index.js';
import { createEmail, createEmailDelivery, createEmailSender } from './email/index.js';
import { PROTECT_PASSWORDS_PURPOSE } from './finishing/index.js';
import { closeServer } from './http/close-server.js';
import { registerHealthRoutes, registerVersionRoute } from './http/health-routes.js';
import { warmUpServer } from './http/schema-warm-up.js';
import { type App, createServer } from './http/server.js';
import { IdempotencyStore } from './idempotency/index.js';
import { type Background, type JobDefinition, JobWorkers, sweepFinishedJobs } from './jobs/index.js';
import { LiquidEngine } from './liquid/index.js';
import { registerMcp } from './mcp/index.js';
import { createMetrics, holdsMetricsToken } from './metrics/index.js';
import { createPdf } from './pdf/index.js';
import { createPdfTools, toolBudget } from './pdf-tools/index.js';
import { createAdmission, createProduction, type Production } from './production/index.js';
import { makeThumbnail, RenderService, resolvePageOptions } from './render/index.js';
import { type Capability, type Lifecycle, startInOrder } from './shared/capability.js';
import { type Clock, systemClock } from './shared/clock.js';
import { MemoryRateCounter, type RateCounter } from './shared/rate-counter.js';
import { Sweeper } from './shared/sweeper.js';
import { MemoryTeamSlots, type TeamSlots } from './shared/team-slots.js';
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
import { startTelemetry, type Telemetry } from './telemetry/index.js';
import { createTemplates, mergeData, templatePortOf } from './templates/index.js';
import { UntrustedFiles } from './untrusted/index.js';
import { createSessionLookup, createUsers, httpsTest } from './users/index.js';
import { registerWebApp } from './web/index.js';
import { createSecretBox, createWebhooks } from './webhooks/index.js';

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

export type { BuildOptions } from './app-options.js';

type AppCapability = Capability<App, JobDefinition>;

/**
 * The composition root: construct modules, inject ports, register routes, start them — nothing else. Each
 * layer is built from those before it: storage, engines, shared services, production, capabilities.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const clock = options.clock ?? systemClock;
  const storage = await openStorage(config);
  options.onStartupPhase?.('migrations');
  const url = { current: derivePublicUrl(config) };
  const publicUrl = () => url.current;
  const telemetry = await startTelemetry(config.otel);
  const app = createServer({
    ...telemetry.server,
    logLevel: config.logLevel,
    logFormat: config.logFormat,
    publicUrl,
    clock,
    rate: storage.rate,
    ipBudgetPerMin: config.ipRateLimitPerMin,
    trustProxy: config.trustProxy,
  });
  const https = httpsTest(publicUrl);
  const base: Base = { ...storage, config, options, clock, app, publicUrl, https, telemetry };
  const engines = createEngines(base);
  const shared = createShared(base, engines);
  const production = composeProduction(base, engines, shared);
  const jobs = new JobWorkers({
    db: base.db,
    clock,
    log: app.log,
    heavyWorkers: config.workers,
    leaseMs: config.jobLeaseMs,
    graceMs: config.shutdownGraceMs,
    ...(options.jobPollMs === undefined ? {} : { pollMs: options.jobPollMs }),
  });
  const capabilities = createCapabilities(base, engines, shared, production, jobs.wake);
  jobs.add(capabilities.inOrder.flatMap((capability) => capability.jobs ?? []));
  const sweeper = createSweeper(base, shared.idempotency, capabilities.inOrder);
  await registerRoutes(base, engines, capabilities.inOrder);
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') url.current = derivePublicUrl(config, address.port);
  });
  // Started top to bottom, closed bottom to top: a part closes only once every part below it has.
  const close = await startInOrder([
    telemetry, // closed last: flushes the spans of all the rest
    storage, // every part reads or writes through the database and the blob store
    capabilities.einvoiceInbound,
    ...(options.sharedPools ? [] : [engines.untrusted, engines.liquid]), // borrowed pools stay open
    engines.renderer, // before the pools: outside this process, Chromium would outlive a shutdown cut short
    capabilities.email, // the SMTP connections: webhooks (their notices) and users send through them
    capabilities.webhooks,
    usageHolds(base, shared.usage), // with the next two: what requests and jobs held or may still write
    sweeping(base, sweeper),
    releasing(base, shared.slots),
    intake(app, jobs, engines.renderer), // no request or job runs once it has closed
  ]);
  options.onStartupPhase?.('built');
  await warmUp(base, engines);
  const { db, blobs, plans, rate } = storage;
  const { renderer, liquid } = engines;
  return {
    app,
    services: { config, clock, db, blobs, plans, rate, publicUrl, sweeper, renderer, liquid },
    background: jobs.background,
    close,
  };
}

/** What every layer is built from. */
interface Base extends Omit<Storage, 'close'> {
  config: Config;
  options: BuildOptions;
  clock: Clock;
  app: App;
  /** Base of signed links and docs_url; known for sure only after listen when the port is 0. */
  publicUrl(): string;
  https: ReturnType<typeof httpsTest>;
  telemetry: Telemetry;
}

type Storage = Awaited<ReturnType<typeof openStorage>>;

/** The database, the blob store, and what is read once from the data directory and the plans file. */
async function openStorage(config: Config) {
  const db = await openDatabase(config.dataDir, config.databaseUrl);
  const serverSecret = loadServerSecret(config.dataDir);
  // Several processes share one PostgreSQL, so their request budgets live there; one SQLite process counts in memory.
  const rate: RateCounter = config.databaseUrl ? new DatabaseRateCounter(db) : new MemoryRateCounter();
  const plans = loadPlans(config.plansFile);
  const store = await openBlobStore(config.dataDir, config.storage);
  const close = async () => {
    store.close();
    await db.destroy();
  };
  return { db, blobs: store.blobs, rate, plans, serverSecret, signer: new LinkSigner(serverSecret), close };
}

type Engines = ReturnType<typeof createEngines>;

/** What renders and parses: Chromium (measured when metrics are on) and the worker pools. */
function createEngines(base: Base) {
  const { config, options, app, db } = base;
  const renderer =
    options.earlyRenderer?.service ??
    new RenderService(config, app.log, null, options.sharedRenderer ?? null);
  options.earlyRenderer?.log.attach(app.log);
  const metrics = createMetrics(config, { db, renderer, otlp: base.telemetry.metrics });
  return {
    renderer,
    measuredRenderer: metrics.measure(renderer),
    metrics,
    liquid:
      options.sharedPools?.liquid ??
      new LiquidEngine({
        renderMs: options.liquidRenderMs,
        onWorkerError: (err) => app.log.error({ err }, 'Liquid worker failed outside a render'),
      }),
    // Uploaded files (spreadsheets, logos, fonts) are read on a pool of their own, never on this thread.
    untrusted:
      options.sharedPools?.untrusted ??
      new UntrustedFiles({
        onWorkerError: (err) => app.log.error({ err }, 'Untrusted-file worker failed outside a task'),
      }),
  };
}

type Shared = ReturnType<typeof createShared>;

/** What production and several capabilities share. */
function createShared(base: Base, engines: Engines) {
  const { config, options, app, clock, db, blobs, rate, plans, serverSecret, signer, publicUrl } = base;
  const usage = new UsageService({
    db,
    plans,
    holdTtlMs: config.renderLeaseTtlMs,
    onError: (err) => app.log.error({ err }, 'usage reservation heartbeat failed'),
  });
  // `protect` passwords of queued requests and templates: stored only sealed (finishing/sealed-protect.ts).
  const passwords = createSecretBox(serverSecret, PROTECT_PASSWORDS_PURPOSE);
  return {
    usage,
    passwords,
    documents: createDocuments({ db, clock, blobs, signer, publicUrl, makeThumbnail, usage }),
    brand: createBrand({ db, blobs, clock, rate, signer, publicUrl, untrusted: engines.untrusted }),
    certificates: createCertificates({
      db,
      clock,
      box: createSecretBox(serverSecret, 'quire certificate keys v1'),
      reader: engines.untrusted,
      ...(config.tsaUrl ? { timestampUrl: config.tsaUrl } : {}),
    }),
    planOf: (teamId: string) => planOfTeam(db, plans, teamId),
    delivery: createEmailDelivery({ db, clock }),
    templatePort: templatePortOf({ db, passwords }, engines.liquid),
    // Several processes share one PostgreSQL: the team's render slots are leases in it (one process: memory).
    slots: config.databaseUrl
      ? new DatabaseTeamSlots(db, {
          ttlMs: config.renderLeaseTtlMs,
          onError: (err) => app.log.error({ err }, 'render slot lease failed'),
        })
      : new MemoryTeamSlots(),
    idempotency: new IdempotencyStore({ db, clock }),
    sender:
      options.email ??
      createEmailSender({
        smtpUrl: config.smtpUrl,
        smtpInsecure: config.smtpInsecure,
        from: config.smtpFrom,
        log: app.log,
        outboxDir: path.join(config.dataDir, 'outbox'),
      }),
  };
}

/** The one "make a document" use case over its ports. */
function composeProduction(base: Base, engines: Engines, shared: Shared): Production {
  const { config, options, clock } = base;
  const { documents, delivery } = shared;
  return createProduction({
    clock,
    renderer: engines.measuredRenderer,
    liquid: engines.liquid,
    templates: shared.templatePort,
    pageOptions: (request, settings, fallback) => resolvePageOptions(request, settings ?? {}, fallback),
    mergeData,
    brand: shared.brand.port,
    slots: shared.slots,
    blobs: base.blobs,
    ledger: documents.ledger,
    lifecycle: documents.lifecycle,
    admission: createAdmission({
      clock,
      usage: shared.usage,
      ledger: documents.ledger,
      delivery,
      maxPreparing: config.maxPreparing,
      dataDir: config.dataDir,
      minFreeBytes: config.minFreeDiskMb * 1024 * 1024,
      ...(options.freeDiskBytes ? { freeBytes: options.freeDiskBytes } : {}),
    }),
    delivery,
    certificates: shared.certificates.port,
    findDocument: documents.findById,
    storedPdfs: documents.storedPdfs,
    planOf: shared.planOf,
    passwords: shared.passwords,
  });
}

/** Every capability; `inOrder` is the OpenAPI document's order of routes (signed routes of each first). */
function createCapabilities(
  base: Base,
  engines: Engines,
  shared: Shared,
  production: Production,
  /** Jobs queued by a request wake this process's workers. */
  wakeJobs: () => void,
) {
  const { config, options, app, clock, db, blobs, rate, signer, publicUrl, https } = base;
  const { documents, idempotency, planOf, sender } = shared;
  const templates = createTemplates({
    services: { db, blobs, clock, rate, publicUrl, signer, passwords: shared.passwords },
    engine: engines.liquid,
    production,
    planOf,
    make: makeThumbnail,
  });
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
    untrusted: engines.untrusted,
    templates: shared.templatePort,
  });
  const einvoiceInbound = createEInvoiceInbound({
    rate,
    clock,
    timeMs: config.einvoiceCheckTimeoutMs,
    rules: options.einvoiceRules ?? new CompiledRules(config.einvoiceRulesDir),
    onWorkerError: (err) => app.log.error({ err }, 'E-invoice worker failed outside a task'),
  });
  const webhooks = createWebhooks({
    db,
    clock,
    rate,
    box: createSecretBox(base.serverSecret),
    allowPrivate: config.allowPrivateWebhooks,
    timeoutMs: config.webhookTimeoutMs,
    email: sender,
    log: app.log,
    ...(options.resolveHost ? { resolve: options.resolveHost } : {}),
    wakeDeliveries: wakeJobs,
  });
  const email = createEmail({ clock, sender, documents: documents.attachments });
  const mail = { sender, publicUrl, log: app.log, smtp: Boolean(config.smtpUrl || options.email) };
  const { testDocumentsPerDay } = documents.ledger;
  const inOrder: AppCapability[] = [
    createAccounts({ db, clock, usage: shared.usage, testDocumentsPerDay }),
    createUsers({ db, clock, rate, mail, https, invitationsPerDay: config.invitationsPerDay }),
    documents,
    createPdf({ production, idempotency, documents, wakeJobs }),
    createPdfTools({
      ...{ clock, production, idempotency, documents },
      certificates: shared.certificates.port,
      toolBudget: toolBudget(config.pdfToolTimeoutMs),
    }),
    templates,
    shared.brand,
    shared.certificates,
    batches,
    einvoiceInbound,
    webhooks,
    // A batch item's final state may complete its batch (the render job's extension point).
    { jobs: [production.renderJob({ afterFinal: batches.afterItemFinal })] },
    email,
  ];
  return { inOrder, einvoiceInbound, webhooks, email };
}

/** Every capability's retention sweep, after the job queue's and the idempotency keys'. */
function createSweeper(base: Base, idempotency: IdempotencyStore, capabilities: AppCapability[]): Sweeper {
  const { config, app, clock, db } = base;
  const sweeper = new Sweeper(clock, config.sweepIntervalS * 1000, (name, err) =>
    app.log.error({ err, sweep: name }, 'retention sweep failed'),
  );
  sweeper.add('jobs', () => sweepFinishedJobs(db, clock));
  sweeper.add('idempotency-keys', (now) => idempotency.sweep(now));
  for (const sweep of capabilities.flatMap((capability) => capability.sweeps ?? []))
    sweeper.add(sweep.name, sweep.run);
  return sweeper;
}

/**
 * The server's own routes around the capabilities'. Metrics come before the OpenAPI plugin, which documents
 * only the routes registered after it; their response hook is the whole server's.
 */
async function registerRoutes(base: Base, engines: Engines, capabilities: AppCapability[]): Promise<void> {
  const { app, db, publicUrl } = base;
  const { access } = engines.metrics;
  engines.metrics.register(app);
  await registerOpenApi(app, publicUrl);
  registerHealthRoutes(app, db, engines.renderer, base.blobs);
  registerVersionRoute(
    app,
    async () => ({
      version: quireVersion(),
      commit: quireCommit(),
      chromium: (await engines.renderer.stats())?.chromiumVersion ?? null,
      einvoice_rules: einvoiceRuleSets(),
    }),
    async (authorization) =>
      holdsMetricsToken(access, authorization) || (await authenticate(db, authorization)).ok,
  );
  // Before /v1: the MCP tools' input schemas are its routes'.
  registerMcp(app, { publicUrl, keyIsValid: async (header) => (await authenticate(db, header)).ok });
  await app.register(async (v1) => registerCapabilityRoutes(base, v1, capabilities), { prefix: '/v1' });
  await registerDocsRoutes(app, { publicUrl, version: quireVersion() });
  await registerWebApp(app, undefined, publicUrl);
}

/**
 * Each capability's routes in a plugin of its own, so the hooks it adds stay its own: signed ones in the
 * public /v1 scope, then the rest in the scope behind the API key or session, whose hook they inherit.
 */
async function registerCapabilityRoutes(base: Base, v1: App, capabilities: AppCapability[]): Promise<void> {
  const { config, db, clock, plans, rate, https } = base;
  for (const capability of capabilities) {
    if (capability.signedRoutes) await v1.register(async (scope) => capability.signedRoutes?.(scope));
  }
  await v1.register(async (authed) => {
    const sessions = createSessionLookup(db, clock, https);
    const { testKeyRatePerMin } = config;
    authed.addHook('onRequest', createAuthHook({ db, clock, plans, rate, testKeyRatePerMin, sessions }));
    for (const capability of capabilities) {
      if (capability.routes) await authed.register(async (scope) => capability.routes?.(scope));
    }
  });
}

/** Reservations a killed process held would count until the period ends; the heartbeat keeps ours alive. */
function usageHolds(base: Base, usage: UsageService): Lifecycle {
  const shared = Boolean(base.config.databaseUrl);
  return {
    start: async () => void (await usage.recoverHolds({ everyOtherHolder: !shared, heartbeat: shared })),
    close: () => usage.stop(),
  };
}

/** Tests run the sweeps with `services.sweeper.runOnce()` instead (startSweeper: false). */
function sweeping(base: Base, sweeper: Sweeper): Lifecycle {
  const start = base.options.startSweeper ?? true;
  return { start: () => (start ? sweeper.start() : undefined), close: () => sweeper.stop() };
}

function releasing(base: Base, slots: TeamSlots): Lifecycle {
  const log = base.app.log;
  return {
    close: () => slots.close().catch((err: unknown) => log.error({ err }, 'render slots not released')),
  };
}

/**
 * Work coming in: requests and this process's job workers. At close, readiness says "shutting down" and a
 * lost Chromium is not relaunched; then requests and jobs drain together within the one grace period (one
 * after the other could take twice as long, past the orchestrator's kill).
 */
function intake(app: App, jobs: JobWorkers, renderer: RenderService): Lifecycle {
  return {
    start: () => jobs.start(),
    close: async () => {
      renderer.beginShutdown();
      await closeServer(app, () => jobs.close());
    },
  };
}

/** The first PDF request's one-time work, off the critical path (http/schema-warm-up.ts). */
function warmUp(base: Base, engines: Engines): Promise<void> {
  const { app, options } = base;
  const renderer = (options.warmRenderer ?? true) ? engines.renderer : null;
  return warmUpServer(app, { schemas: options.warmUp === true, liquid: engines.liquid, renderer });
}
