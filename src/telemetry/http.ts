import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

// The semantic conventions' stable HTTP names (the package itself stays out of the light path).
const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
const ATTR_HTTP_ROUTE = 'http.route';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The server span of each request, found again by the response hook. */
const serverSpans = new WeakMap<IncomingMessage, Span>();

/**
 * Wraps the HTTP server's request handler: one SERVER span per request, continuing an incoming
 * `traceparent`, active for everything the request does. The request and response emitters are bound to
 * the span's context, so body parsing and Fastify's hooks (run from their events) stay in the trace.
 * Only the method is known here; the route, status, team and key mode are set once the response is sent.
 */
export function traceRequests(handler: Handler): Handler {
  return (req, res) => {
    if (isProbe(req.url)) return handler(req, res);
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const method = req.method ?? 'GET';
    const span = trace
      .getTracer('quire')
      .startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } },
        parent,
      );
    serverSpans.set(req, span);
    // A connection closed before the response was sent still ends its span.
    res.once('close', () => span.end());
    const active = trace.setSpan(parent, span);
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, () => handler(req, res));
  };
}

/** The orchestrator's probes and scrapes, every few seconds: not traced (nothing to follow). */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

function isProbe(url: string | undefined): boolean {
  return PROBES.has((url ?? '').split('?')[0] ?? '');
}

/** What the response hook knows of a request: its route pattern and, once authenticated, its caller. */
export interface RespondedRequest {
  raw: IncomingMessage;
  method: string;
  routeOptions: { url?: string | undefined };
  auth?: { team: { id: string }; mode: string } | undefined;
}

/**
 * Names the server span after its route pattern (never the URL: ids and signed-link tokens stay out) and
 * records the status, team id and key mode. Keys, bodies and addresses are never read.
 */
export function finishServerSpan(request: RespondedRequest, status: number): void {
  const span = serverSpans.get(request.raw);
  if (!span) return;
  const route = request.routeOptions.url;
  if (route) {
    span.updateName(`${request.method} ${route}`);
    span.setAttribute(ATTR_HTTP_ROUTE, route);
  }
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (request.auth) {
    span.setAttribute('quire.team_id', request.auth.team.id);
    span.setAttribute('quire.key_mode', request.auth.mode);
  }
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** The spec's refusals: the service or the plan said no (busy, rate, plan, cap, quota), not the request. */
const REFUSALS = new Set([
  'service_busy',
  'rate_limited',
  'plan_limit_reached',
  'spending_cap_reached',
  'feature_not_available',
  'storage_limit_reached',
  'email_limit_reached',
]);
const REFUSAL_STATUSES = new Set([402, 429, 503]);
/** The error body's code, first in the serialized spec error object (src/http/error-body.ts). */
const ERROR_CODE = /^\{"error":\{"code":"([a-z_]{1,40})"/;

/**
 * A `quire.refused` event on the server span when the response is one of the refusals, with the error's
 * code only. Reads the serialized body of 402, 429 and 503 answers alone; every other response passes.
 */
export function noteRefusal(request: { raw: IncomingMessage }, status: number, payload: unknown): void {
  if (!REFUSAL_STATUSES.has(status) || typeof payload !== 'string') return;
  const span = serverSpans.get(request.raw);
  const code = span ? ERROR_CODE.exec(payload)?.[1] : undefined;
  if (!span || !code || !REFUSALS.has(code)) return;
  span.addEvent('quire.refused', { 'quire.error.code': code, [ATTR_HTTP_RESPONSE_STATUS_CODE]: status });
}
