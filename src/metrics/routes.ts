import { createHash, timingSafeEqual } from 'node:crypto';
import type { App } from '../http/server.js';
import type { MetricsRecorder, QuireMetrics } from './registry.js';

/** Who may read GET /metrics: nobody (off: 404), anyone (public), or holders of the bearer token. */
export type MetricsAccess = { kind: 'off' } | { kind: 'public' } | { kind: 'token'; token: string };

/** QUIRE_METRICS_TOKEN wins over QUIRE_METRICS=public; neither leaves metrics off. */
export function metricsAccess(mode: 'off' | 'public', token: string | null): MetricsAccess {
  if (token) return { kind: 'token', token };
  return mode === 'public' ? { kind: 'public' } : { kind: 'off' };
}

/**
 * GET /metrics. Registered only when metrics are on: off costs nothing. Responses are counted by
 * `recordHttpResponses` by their route pattern (bounded labels; an unmatched URL counts as `unmatched`).
 */
export function registerMetricsRoutes(app: App, metrics: QuireMetrics, access: MetricsAccess): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (access.kind === 'token' && !bearerMatches(request.headers.authorization, access.token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({
          error: {
            code: 'unauthorized',
            message: 'GET /metrics needs Authorization: Bearer QUIRE_METRICS_TOKEN.',
          },
        });
    }
    const { contentType, body } = await metrics.scrape();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}

/** The hook that counts every HTTP response (Prometheus, OTLP or both: whichever recorder is on). */
export function recordHttpResponses(app: App, metrics: MetricsRecorder): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpResponse(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/** Whether `Authorization` carries the metrics token (never when metrics have no token). */
export function holdsMetricsToken(access: MetricsAccess, header: string | undefined): boolean {
  return access.kind === 'token' && bearerMatches(header, access.token);
}

/** Constant-time comparison (of digests, so the lengths match too): the token must not leak by timing. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}
