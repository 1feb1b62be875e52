import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (spec: Events, Delivery 2): `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`,
 * with one `v1=` per active secret (two for 24 hours after a rotation).
 */

const SECRET_PREFIX = 'whsec_';
const SECRET_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_BODY_LENGTH = 40;

/** `whsec_` + 40 base62 characters (~238 bits). Shown to the user once, stored only encrypted. */
export function generateWebhookSecret(): string {
  let body = '';
  // Rejection sampling keeps every character uniformly random.
  while (body.length < SECRET_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && body.length < SECRET_BODY_LENGTH) body += SECRET_ALPHABET[byte % 62];
    }
  }
  return `${SECRET_PREFIX}${body}`;
}

/** The visible part of a secret (spec: `secret_prefix` = its first 10 characters). */
export function secretPrefix(secret: string): string {
  return secret.slice(0, 10);
}

export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** The `Quire-Signature` header value (spec: `Service-Signature`) for the given secrets (newest first). */
export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  const parts = [`t=${timestamp}`];
  for (const secret of secrets) parts.push(`v1=${computeSignature(secret, timestamp, rawBody)}`);
  return parts.join(',');
}

export type SignatureVerdict =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed' | 'mismatch' | 'too_old' };

/** The receiver's side: any `v1=` matching the secret accepts; timestamps older than the tolerance are refused. */
export function verifySignature(
  header: string,
  secret: string,
  rawBody: string,
  options: { nowSeconds: number; toleranceSeconds?: number },
): SignatureVerdict {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(computeSignature(secret, parsed.timestamp, rawBody), 'hex');
  const matches = parsed.signatures.some((sig) => {
    const given = Buffer.from(sig, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return { ok: false, reason: 'mismatch' };
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(options.nowSeconds - parsed.timestamp) > tolerance) return { ok: false, reason: 'too_old' };
  return { ok: true, timestamp: parsed.timestamp };
}

export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}
