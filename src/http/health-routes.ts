import type { Db } from '../storage/db.js';
import { pingDatabase } from '../storage/db.js';
import type { App } from './server.js';

/** Liveness (process up) and readiness (database reachable) for orchestrators. */
export function registerHealthRoutes(app: App, db: Db): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ok = await pingDatabase(db);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'database unavailable' });
  });
}
