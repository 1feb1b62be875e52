import { createHmac, timingSafeEqual } from 'node:crypto';

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
