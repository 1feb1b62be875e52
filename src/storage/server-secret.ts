import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The server's own 32-byte secret, generated on first start and kept in the data directory (mode 0600).
 * Signed links and webhook-secret encryption derive their keys from it, so it never leaves the host.
 */
export function loadServerSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'server-secret');
  try {
    const existing = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    if (existing.length === 32) return existing;
  } catch {
    // first start
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32);
  try {
    writeFileSync(file, secret.toString('hex'), { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    // Another process (CLI or worker) created it first: use theirs.
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  }
}
