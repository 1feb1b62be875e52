import type { Db } from '../storage/db.js';
import { pingDatabase } from '../storage/db.js';
import type { App } from './server.js';

/** What else readiness depends on: why the renderer cannot render right now, or null when it can. */
export interface RendererReadiness {
  unreadiness(): string | null;
}

/**
 * Liveness (process up) and readiness (database reachable, Chromium up and not relaunching, not
 * shutting down) for orchestrators.
 */
export function registerHealthRoutes(app: App, db: Db, renderer?: RendererReadiness): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const notReady = renderer?.unreadiness() ?? ((await pingDatabase(db)) ? null : 'database unavailable');
    return reply.code(notReady ? 503 : 200).send({ status: notReady ?? 'ok' });
  });
}

/** What GET /version reports (operators, support requests, the typed client's compatibility checks). */
export interface VersionInfo {
  version: string;
  commit: string | null;
  chromium: string | null;
}

/** GET /version: Quire's version, the commit when known, and the running Chromium's version. */
export function registerVersionRoute(app: App, version: () => Promise<VersionInfo>): void {
  app.get('/version', { schema: { hide: true } }, async () => version());
}
