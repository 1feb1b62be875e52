import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyMode = 'live' | 'test';

/** What a key may manage besides rendering: `admin` keys manage keys, members and invitations (live only). */
export type KeyRole = 'admin' | 'member';

/** Key form: `qk_live_` / `qk_test_` + 32 base62 characters (~190 bits of randomness). */
const KEY_PATTERN = /^qk_(live|test)_[0-9A-Za-z]{32}$/;
const PREFIX_LENGTH = 12;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function generateApiKey(mode: KeyMode): { key: string; prefix: string; hash: string } {
  let body = '';
  // Rejection sampling keeps every character uniformly random.
  while (body.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 32) body += ALPHABET[byte % 62];
    }
  }
  const key = `qk_${mode}_${body}`;
  return { key, prefix: keyPrefix(key), hash: hashApiKey(key) };
}

/** The part of a key that may be shown and logged. */
export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

/** Keys carry enough entropy that a fast hash is safe; only the hash is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
