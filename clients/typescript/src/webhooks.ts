import { createHmac, timingSafeEqual } from 'node:crypto';
import { clientError } from './errors.js';
import type { Batch, DocumentResult } from './types.js';

/**
 * Checks a webhook request (spec: Events, Delivery 2): the `Quire-Signature` header is
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`, with two `v1=` values for 24 hours
 * after a secret rotation; any match accepts. Verify against the raw, unparsed body.
 */

/** The header carrying the signature. */
export const SIGNATURE_HEADER = 'quire-signature';

export interface VerifyOptions {
  /** The endpoint's secret, or several (e.g. the old and the new one while you roll out a rotation). */
  secret: string | readonly string[];
  /** Oldest accepted timestamp, in seconds before now (default 300, the spec's 5 minutes). */
  toleranceSeconds?: number;
  /** Test seam: the current time in unix seconds. */
  nowSeconds?: number;
}

export type WebhookVerdict =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed' | 'mismatch' | 'too_old' };

interface ParsedHeader {
  timestamp: number;
  signatures: string[];
}

function parseHeader(header: string): ParsedHeader | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/** Constant-time comparison of two hex digests of equal length. */
function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether the request was signed by Quire with one of the secrets, recently enough. */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  options: VerifyOptions,
): WebhookVerdict {
  const parsed = header ? parseHeader(header) : null;
  if (!parsed) return { ok: false, reason: 'malformed' };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (now - parsed.timestamp > (options.toleranceSeconds ?? 300)) return { ok: false, reason: 'too_old' };
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${parsed.timestamp}.`).update(body).digest('hex');
    // Every signature is compared, so the time taken does not tell which one matched.
    const matches = parsed.signatures.map((signature) => sameDigest(signature, expected));
    if (matches.includes(true)) return { ok: true, timestamp: parsed.timestamp };
  }
  return { ok: false, reason: 'mismatch' };
}

/** The data of a `pdf.created` / `pdf.failed` event: the Document as `response: url` answers it, plus its batch. */
export type PdfEventData = DocumentResult & { batch_id: string | null };

interface EventEnvelope<T extends string, D> {
  /** `evt_` plus 32 hex characters; the same on re-sends: use it to drop duplicates. */
  id: string;
  type: T;
  created_at: string;
  livemode: boolean;
  /** Present (true) only on events from POST /webhooks/{id}/test. */
  test_event?: true;
  data: D;
}

/** What a webhook delivery carries (spec: Event envelope), narrowed by `type`. */
export type WebhookEvent =
  | EventEnvelope<'pdf.created', PdfEventData>
  | EventEnvelope<'pdf.failed', PdfEventData>
  | EventEnvelope<'batch.completed', Batch>;

export type ConstructEventOptions = Omit<VerifyOptions, 'secret'>;

/**
 * Verifies a delivery and parses its event; throws QuireError `webhook_signature_invalid` (with
 * `details.reason`: malformed, mismatch or too_old) or `webhook_payload_invalid`.
 */
export function constructEvent(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string | readonly string[],
  options: ConstructEventOptions = {},
): WebhookEvent {
  const verdict = verifyWebhookSignature(rawBody, signatureHeader, { ...options, secret });
  if (!verdict.ok) {
    throw clientError(
      'webhook_signature_invalid',
      `The Quire-Signature header does not verify (${verdict.reason}): pass the raw request body, unparsed, and the endpoint's secret.`,
      { reason: verdict.reason },
    );
  }
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw clientError('webhook_payload_invalid', 'The signed body is not JSON.');
  }
  // An event type newer than this client is returned as it came: keep a `default` branch when switching on type.
  const { id, type } = (event ?? {}) as { id?: unknown; type?: unknown };
  if (typeof id !== 'string' || typeof type !== 'string') {
    throw clientError('webhook_payload_invalid', 'The signed body is not an event (no id or type).');
  }
  return event as WebhookEvent;
}
