/**
 * Route schemas compile on their first request (validator.ts, serializer.ts) to keep start-up short.
 * For the routes that matter most, `quire serve` compiles them right after listening instead, off the
 * request path (start to first PDF), through the compile steps registered here.
 */
const pending = new Map<string, Array<() => void>>();

/** The routes compiled at start: the one every PDF takes. */
const WARM_ROUTES = new Set(['POST /v1/pdf']);
/**
 * Compile steps kept per route: one server registers a handful (body, headers, a few response codes);
 * a process that builds many apps (the tests) must not grow this without bound.
 */
const MAX_STEPS_PER_ROUTE = 32;

const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url}`;

/** Registers one lazy schema's compile step under its route (a route with several methods: each). */
export function deferCompile(
  method: string | string[] | undefined,
  url: string | undefined,
  compile: () => void,
) {
  if (method === undefined || url === undefined) return;
  for (const m of Array.isArray(method) ? method : [method]) {
    const key = routeKey(m, url);
    if (!WARM_ROUTES.has(key)) continue;
    pending.set(key, [...(pending.get(key) ?? []), compile].slice(-MAX_STEPS_PER_ROUTE));
  }
}

/**
 * The first PDF request's one-time work, off the critical path: the main thread and a worker thread would
 * otherwise wait for Chromium here. The routes exist only once Fastify has loaded its plugins, so that comes
 * first (ready() before listen() is allowed; nothing is added to the server after buildApp).
 */
export async function warmUpServer(
  app: { ready(): PromiseLike<unknown>; log: { warn(fields: object, message: string): void } },
  parts: { schemas: boolean; liquid: { warm(): Promise<void> }; renderer: { warm(): Promise<void> } | null },
): Promise<void> {
  if (parts.schemas) {
    await app.ready();
    compileRouteSchemas('POST', '/v1/pdf');
  }
  const liquidWarm = parts.schemas
    ? parts.liquid.warm().catch((err: unknown) => app.log.warn({ err }, 'Liquid warm-up failed'))
    : null;
  if (parts.renderer) await parts.renderer.warm();
  await liquidWarm;
}

/** Compiles every schema of one route now (request body, query, params, headers, responses). */
export function compileRouteSchemas(method: string, url: string): void {
  const key = routeKey(method, url);
  const steps = pending.get(key) ?? [];
  pending.delete(key);
  for (const step of steps) step();
}
