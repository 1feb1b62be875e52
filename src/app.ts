import path from 'node:path';
import { loadPlans, type Plan, type PlanId } from './accounts/plans.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { type Config, derivePublicUrl } from './config/config.js';
import { registerDocsRoutes, registerOpenApi } from './docs/routes.js';
import { presentDocument } from './documents/present.js';
import { sweepDocuments } from './documents/retention.js';
import { registerDocumentRoutes, registerSignedDocumentRoutes } from './documents/routes.js';
import { LinkSigner } from './documents/signed-links.js';
import { ThumbnailCache } from './documents/thumbnails.js';
import type { EmailSender } from './email/index.js';
import { createEmailSender } from './email/index.js';
import { createAuthHook } from './http/auth-hook.js';
import { registerHealthRoutes } from './http/health-routes.js';
import { MemoryRateCounter, type RateCounter } from './http/rate-limiter.js';
import { type App, createServer } from './http/server.js';
import {
  type Background,
  createRenderJobHandler,
  JobRegistry,
  RENDER_JOB,
  startBackground,
} from './jobs/index.js';
import { LiquidEngine } from './liquid/index.js';
import { createBackgroundRenderer, createPdfEnqueuer } from './pdf/background.js';
import { RenderService } from './pdf/render-service.js';
import { registerPdfRoutes } from './pdf/routes.js';
import { makeThumbnail, resolvePageOptions } from './render/index.js';
import { type Clock, systemClock } from './shared/clock.js';
import { Sweeper } from './shared/sweeper.js';
import { MemoryTeamSlots, type TeamSlots } from './shared/team-slots.js';
import { type BlobStore, FsBlobStore } from './storage/blob-store.js';
import { type Db, openDatabase } from './storage/db.js';
import { loadServerSecret } from './storage/server-secret.js';
import { createTemplates, sweepTemplates } from './templates/index.js';
import { mergeData } from './templates/merge-data.js';
import type { Resolver } from './webhooks/index.js';
import { createSecretBox, registerWebhookRoutes } from './webhooks/index.js';

/** Everything the capabilities share, constructed once here and passed down (no globals). */
export interface AppServices {
  config: Config;
  clock: Clock;
  db: Db;
  blobs: BlobStore;
  plans: Record<PlanId, Plan>;
  rate: RateCounter;
  slots: TeamSlots;
  /** 32 bytes from the data directory; signing and encryption keys derive from it. */
  serverSecret: Buffer;
  /** Base of signed links and docs_url; known for sure only after listen when the port is 0. */
  publicUrl(): string;
  /** The process's Chromium renderer (both modes). */
  renderer: RenderService;
  /** Liquid with the spec's limits; stored template versions go through its parse cache. */
  liquid: LiquidEngine;
  /** Signs and verifies every signed link (files, thumbnails, ZIPs). */
  signer: LinkSigner;
  /** Retention sweeps of every capability; add yours with `sweeper.add(name, fn)`. */
  sweeper: Sweeper;
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
  /** Run the periodic retention sweep (tests call `services.sweeper.runOnce()` instead). */
  startSweeper?: boolean;
  /** Test seams for background work: a capturing email sender, a long delivery poll, a fake DNS. */
  email?: EmailSender;
  deliveryPollMs?: number;
  resolveHost?: Resolver;
}

/** The composition root: construct modules, inject ports, register routes — nothing else. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config.dataDir);
  const state = { publicUrl: derivePublicUrl(config) };
  const serverSecret = loadServerSecret(config.dataDir);
  const rate = new MemoryRateCounter();
  const app = createServer({
    logLevel: config.logLevel,
    publicUrl: () => state.publicUrl,
    clock,
    rate,
    ipBudgetPerMin: config.ipRateLimitPerMin,
  });
  const services: AppServices = {
    config,
    clock,
    db,
    blobs: new FsBlobStore(path.join(config.dataDir, 'blobs')),
    plans: loadPlans(config.plansFile),
    rate,
    slots: new MemoryTeamSlots(),
    serverSecret,
    publicUrl: () => state.publicUrl,
    renderer: new RenderService(config, app.log),
    liquid: new LiquidEngine(),
    signer: new LinkSigner(serverSecret),
    sweeper: new Sweeper(clock, config.sweepIntervalS * 1000, (name, err) =>
      app.log.error({ err, sweep: name }, 'retention sweep failed'),
    ),
  };
  const documentDeps = {
    services,
    signer: services.signer,
    thumbnails: new ThumbnailCache({ db, blobs: services.blobs, clock, make: (pdf) => makeThumbnail(pdf) }),
  };
  const templates = createTemplates(services);
  const pdfDeps = {
    services,
    renderer: services.renderer,
    liquid: services.liquid,
    templates: templates.port,
    pageOptions: (
      body: Parameters<typeof resolvePageOptions>[0],
      settings: Parameters<typeof resolvePageOptions>[1] | null,
      fallback: 'fast' | 'print',
    ) => resolvePageOptions(body, settings ?? {}, fallback),
    mergeData,
    signer: services.signer,
    enqueue: null as ReturnType<typeof createPdfEnqueuer> | null,
  };
  const email =
    options.email ?? createEmailSender({ smtpUrl: config.smtpUrl, from: config.smtpFrom, log: app.log });
  const registry = new JobRegistry();
  registry.register(
    RENDER_JOB,
    createRenderJobHandler({
      clock,
      plans: services.plans,
      slots: services.slots,
      renderer: createBackgroundRenderer(pdfDeps),
      present: (row) => ({
        ...presentDocument(row, {
          signer: services.signer,
          publicUrl: services.publicUrl(),
          nowMs: clock.now().getTime(),
        }),
      }),
    }),
  );
  const background = startBackground({
    db,
    clock,
    config,
    serverSecret,
    registry,
    email,
    log: app.log,
    workers: config.workers,
    ...(options.deliveryPollMs === undefined ? {} : { pollMs: options.deliveryPollMs }),
  });
  pdfDeps.enqueue = createPdfEnqueuer(pdfDeps, () => background.wakeJobs());
  services.sweeper.add('webhooks-jobs', () => background.sweep());
  services.sweeper.add('documents', (now) => sweepDocuments(db, services.blobs, now));
  services.sweeper.add('templates', (now) => sweepTemplates(db, services.blobs, now));
  await registerOpenApi(app, services.publicUrl);
  registerHealthRoutes(app, db);
  await app.register(
    async (v1) => {
      registerSignedDocumentRoutes(v1, documentDeps);
      templates.registerSignedRoutes(v1);
      await v1.register(async (authed) => {
        authed.addHook(
          'onRequest',
          createAuthHook({ db, clock, plans: services.plans, rate: services.rate }),
        );
        registerAccountRoutes(authed, services);
        registerDocumentRoutes(authed, documentDeps);
        registerPdfRoutes(authed, pdfDeps, services);
        templates.registerRoutes(authed);
        registerWebhookRoutes(authed, {
          db,
          clock,
          rate,
          box: createSecretBox(serverSecret),
          allowPrivate: config.allowPrivateWebhooks,
          ...(options.resolveHost ? { resolve: options.resolveHost } : {}),
          wakeDeliveries: () => background.wakeDeliveries(),
        });
      });
    },
    { prefix: '/v1' },
  );
  await registerDocsRoutes(app);
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') state.publicUrl = derivePublicUrl(config, address.port);
  });
  if (options.warmRenderer ?? true) await services.renderer.warm();
  if (options.startSweeper ?? true) services.sweeper.start();
  return {
    app,
    services,
    background,
    close: async () => {
      await app.close();
      await services.sweeper.stop();
      await background.stop();
      email.close();
      await services.renderer.close();
      await services.liquid.close();
      await db.destroy();
    },
  };
}
