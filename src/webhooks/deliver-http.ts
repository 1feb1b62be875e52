import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { createGuardedAgent, RefusedAddressError, refusedHostReason } from '../net/index.js';
import { currentTraceparent, inSpan, markFailed } from '../telemetry/index.js';
import { checkUrlAtDelivery } from './url-policy.js';

/**
 * One delivery attempt (spec: Events, Delivery 1–3 and 8): POST the envelope, success is a 2xx within the
 * timeout, redirects are failures, at most 4 KB of the answer is read and its first 1,024 characters kept.
 * Expected failures are values, never exceptions.
 */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
  /** Extension (delivery log detail): the headers sent; null when nothing was sent (a refused URL). */
  requestHeaders: Record<string, string> | null;
  /** Extension: the answer's headers (at most MAX_KEPT_HEADERS, values cut to MAX_HEADER_VALUE_CHARS). */
  responseHeaders: Record<string, string> | null;
  /** Extension: the first 4 KB of the answer's body as text (`body` keeps the spec's 1,024 characters). */
  bodyPreview: string | null;
}

export interface AttemptRequest {
  url: string;
  rawBody: string;
  signature: string;
  eventId: string;
  eventType: string;
  /** Aborts the attempt (the worker is shutting down or lost the job's lease). */
  signal?: AbortSignal;
}

export const MAX_RESPONSE_READ_BYTES = 4 * 1024;
export const RESPONSE_BODY_KEPT_CHARS = 1024;
/** A receiver's answer headers kept for the log: enough to debug, bounded so a hostile answer stays small. */
const MAX_KEPT_HEADERS = 50;
const MAX_HEADER_VALUE_CHARS = 512;
/**
 * The spec writes the headers with a neutral word in place of the brand (`Service-Signature`, …); Quire
 * sends its own: `Quire-Signature`, `Quire-Event-Id`, `Quire-Event-Type`, `User-Agent: Quire-Webhooks/1.0`.
 */
export const USER_AGENT = 'Quire-Webhooks/1.0';
const SIGNATURE_HEADER = 'quire-signature';
const EVENT_ID_HEADER = 'quire-event-id';
const EVENT_TYPE_HEADER = 'quire-event-type';

export interface HttpDeliverer {
  attempt(req: AttemptRequest): Promise<AttemptResult>;
  close(): Promise<void>;
}

export function createHttpDeliverer(options: { allowPrivate: boolean; timeoutMs: number }): HttpDeliverer {
  const agent = createGuardedAgent({
    allowPrivate: options.allowPrivate,
    connectTimeoutMs: options.timeoutMs,
    headersTimeoutMs: options.timeoutMs,
    bodyTimeoutMs: options.timeoutMs,
  });
  return {
    // The delivery is a span of the document's trace; its request says so in `traceparent` (an addition).
    attempt: (req) =>
      inSpan('quire.webhook.delivery', { 'quire.event_type': req.eventType }, async (span) => {
        const result = await attemptDelivery(agent, req, options);
        if (result.status !== null) span?.setAttribute('http.response.status_code', result.status);
        if (span && !result.ok) markFailed(span, { code: 'webhook_not_delivered' });
        return result;
      }),
    close: () => agent.close(),
  };
}

function traceHeader(): { traceparent?: string } {
  const traceparent = currentTraceparent();
  return traceparent ? { traceparent } : {};
}

async function attemptDelivery(
  agent: Dispatcher,
  req: AttemptRequest,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Checked again at every delivery (spec: Delivery 8); host names are checked at connect by the agent.
  const shape = await checkUrlAtDelivery(req.url, { allowPrivate: options.allowPrivate });
  if (!shape.ok) return failure(`refused URL: ${shape.reason}`, elapsed());
  const literal = refusedHostReason(new URL(shape.url), options.allowPrivate);
  if (literal) return failure(`refused URL: private_address (${literal})`, elapsed());
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    [SIGNATURE_HEADER]: req.signature,
    [EVENT_ID_HEADER]: req.eventId,
    [EVENT_TYPE_HEADER]: req.eventType,
    ...traceHeader(),
  };
  try {
    const response = await request(shape.url, {
      dispatcher: agent,
      method: 'POST',
      body: req.rawBody,
      signal,
      headers,
    });
    const preview = await readCapped(response.body);
    const status = response.statusCode;
    const ok = status >= 200 && status < 300;
    const error = ok
      ? null
      : status >= 300 && status < 400
        ? `redirect ${status} not followed`
        : `HTTP ${status}`;
    return {
      ok,
      status,
      body: preview.slice(0, RESPONSE_BODY_KEPT_CHARS),
      error,
      durationMs: elapsed(),
      requestHeaders: headers,
      responseHeaders: keptHeaders(response.headers),
      bodyPreview: preview,
    };
  } catch (err) {
    return { ...failure(describeError(err, timeout, options.timeoutMs), elapsed()), requestHeaders: headers };
  }
}

/** The answer's headers as text, bounded in number and length (a receiver controls them). */
function keptHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw).slice(0, MAX_KEPT_HEADERS)) {
    if (value === undefined) continue;
    kept[name] = (Array.isArray(value) ? value.join(', ') : value).slice(0, MAX_HEADER_VALUE_CHARS);
  }
  return kept;
}

/**
 * Reads at most 4 KB, then destroys the stream, which drops the connection (spec: Delivery 3). Returns the
 * 4 KB as text: the log's preview (extension); its first 1,024 characters are the spec's `response_body`.
 */
async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buf);
      size += buf.length;
      if (size >= MAX_RESPONSE_READ_BYTES) break;
    }
  } catch {
    // A body cut off by the timeout or the peer: keep what arrived; the status already decided.
  } finally {
    if (!body.destroyed) body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, MAX_RESPONSE_READ_BYTES).toString('utf8');
}

function failure(error: string, durationMs: number): AttemptResult {
  return {
    ok: false,
    status: null,
    body: null,
    error,
    durationMs,
    requestHeaders: null,
    responseHeaders: null,
    bodyPreview: null,
  };
}

function describeError(err: unknown, timeout: AbortSignal, timeoutMs: number): string {
  if (timeout.aborted) return `timeout after ${timeoutMs} ms`;
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof RefusedAddressError) return `refused URL: private_address (${e.reason})`;
    if ('code' in e && e.code === 'UND_ERR_HEADERS_TIMEOUT') return `timeout after ${timeoutMs} ms`;
    if ('code' in e && (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN'))
      return 'dns: host does not resolve';
    if ('code' in e && e.code === 'ECONNREFUSED') return 'connection refused';
  }
  return err instanceof Error ? `network error: ${err.message}` : 'network error';
}
