import { type BlobStore, type Db, pingDatabase } from '../storage/index.js';
import { healthSchema } from './openapi.js';
import type { App } from './server.js';

/** What else readiness depends on: why the renderer cannot render right now, or null when it can. */
export interface RendererReadiness {
  unreadiness(): string | null;
}

/**
 * Liveness (process up) and readiness (database and blob store reachable, Chromium up and not relaunching,
 * not shutting down) for orchestrators.
 */
export function registerHealthRoutes(
  app: App,
  db: Db,
  renderer?: RendererReadiness,
  blobs?: Pick<BlobStore, 'ready'>,
): void {
  const liveness = healthSchema(
    'getHealth',
    'Liveness: the process is up',
    'Liveness: answers 200 while the process runs, without touching the database or Chromium. Point a liveness probe here; use GET /readyz to decide whether to send traffic. Needs no key. Errors: `rate_limited` (the per-address budget).',
  );
  app.get('/healthz', { schema: liveness }, async () => ({ status: 'ok' }));
  const readiness = healthSchema(
    'getReadiness',
    'Readiness: database and blob store reachable, Chromium up, not shutting down',
    'Readiness: 200 when the service can take requests, 503 while it starts, shuts down or lacks its database, storage or Chromium, with the reason in `status`. Point load balancers and readiness probes here. Needs no key. Errors: `rate_limited` (the per-address budget).',
  );
  app.get('/readyz', { schema: readiness }, async (_request, reply) => {
    const notReady =
      renderer?.unreadiness() ??
      ((await pingDatabase(db)) ? null : 'database unavailable') ??
      (!blobs || (await blobs.ready()) ? null : 'storage unavailable');
    return reply.code(notReady ? 503 : 200).send({ status: notReady ?? 'ok' });
  });
}

/** What GET /version reports (operators, support requests, the typed client's compatibility checks). */
export interface VersionInfo {
  version: string;
  commit: string | null;
  chromium: string | null;
  /** Extension: the official e-invoice rule sets and releases received invoices are checked with. */
  einvoice_rules: { name: string; version: string }[];
}

/**
 * GET /version: Quire's version and its e-invoice rule sets to anyone (both are published facts of the
 * release); the commit and the running Chromium's version only to a caller with an API key or the metrics
 * token — an exact browser build tells an attacker which renderer exploits apply.
 */
export function registerVersionRoute(
  app: App,
  version: () => Promise<VersionInfo>,
  mayReadDetails: (authorization: string | undefined) => Promise<boolean>,
): void {
  app.get('/version', { schema: { hide: true } }, async (request, reply) => {
    const info = await version();
    // The answer depends on the Authorization header: no shared cache may keep one for another caller.
    reply.header('cache-control', 'no-store').header('vary', 'authorization');
    return (await mayReadDetails(request.headers.authorization))
      ? info
      : { version: info.version, einvoice_rules: info.einvoice_rules };
  });
}
