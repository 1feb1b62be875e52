import path from 'node:path';
import { loadPlans, type Plan, type PlanId } from './accounts/plans.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { type Config, derivePublicUrl } from './config/config.js';
import { registerDocsRoutes, registerOpenApi } from './docs/routes.js';
import { createAuthHook } from './http/auth-hook.js';
import { registerHealthRoutes } from './http/health-routes.js';
import { MemoryRateCounter, type RateCounter } from './http/rate-limiter.js';
import { type App, createServer } from './http/server.js';
import { type Clock, systemClock } from './shared/clock.js';
import { MemoryTeamSlots, type TeamSlots } from './shared/team-slots.js';
import { type BlobStore, FsBlobStore } from './storage/blob-store.js';
import { type Db, openDatabase } from './storage/db.js';
import { loadServerSecret } from './storage/server-secret.js';

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
}

export interface BuiltApp {
  app: App;
  services: AppServices;
  /** Stops accepting requests, finishes in-flight ones, then closes background parts and the database. */
  close(): Promise<void>;
}

export interface BuildOptions {
  clock?: Clock;
}

/** The composition root: construct modules, inject ports, register routes — nothing else. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config.dataDir);
  const state = { publicUrl: derivePublicUrl(config) };
  const services: AppServices = {
    config,
    clock,
    db,
    blobs: new FsBlobStore(path.join(config.dataDir, 'blobs')),
    plans: loadPlans(config.plansFile),
    rate: new MemoryRateCounter(),
    slots: new MemoryTeamSlots(),
    serverSecret: loadServerSecret(config.dataDir),
    publicUrl: () => state.publicUrl,
  };
  const app = createServer({
    logLevel: config.logLevel,
    publicUrl: services.publicUrl,
    clock,
    rate: services.rate,
  });
  await registerOpenApi(app, services.publicUrl);
  registerHealthRoutes(app, db);
  await app.register(
    async (v1) => {
      await v1.register(async (authed) => {
        authed.addHook(
          'onRequest',
          createAuthHook({ db, clock, plans: services.plans, rate: services.rate }),
        );
        registerAccountRoutes(authed, services);
      });
    },
    { prefix: '/v1' },
  );
  await registerDocsRoutes(app);
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') state.publicUrl = derivePublicUrl(config, address.port);
  });
  return {
    app,
    services,
    close: async () => {
      await app.close();
      await db.destroy();
    },
  };
}
