import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/config.js';
import { createPrivateFileSync, ensurePrivateDirSync } from './private-files.js';

const SECRET_BYTES = 32;
/** The file holds the secret hex-encoded (64 characters); a trailing newline from an editor is tolerated. */
const SECRET_TEXT = /^[0-9a-f]{64}\n?$/i;

/**
 * The server's own 32-byte secret, generated on first start and kept in the data directory (mode 0600).
 * Signed links and webhook-secret encryption derive their keys from it, so it never leaves the host.
 * A file that is there but not exactly a 32-byte secret (truncated by a full disk, emptied by mistake) stops
 * the start: using it would make every signed link weak or forgeable, and replacing it would silently
 * invalidate the links and stored webhook secrets made with the real one.
 */
export function loadServerSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'server-secret');
  return readSecret(file) ?? createSecret(file);
}

/** The secret in `file`, null when there is no file; throws when the file is not a valid secret. */
function readSecret(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (!SECRET_TEXT.test(text)) {
    throw new ConfigError(
      `The server secret ${file} is invalid (${Buffer.byteLength(text, 'latin1')} bytes; expected ${SECRET_BYTES * 2} hex characters): restore it from a backup, or delete it to generate a new one (links signed and webhook secrets stored with the old one will stop working).`,
    );
  }
  return Buffer.from(text.trim(), 'hex');
}

/**
 * Writes a new secret atomically: the whole secret goes to a temporary file that is then hard-linked to its
 * name, so no process ever reads a partial file. A link (unlike rename) never replaces an existing file:
 * when another process (CLI, worker) published its secret first, that one wins and is used by everyone.
 */
function createSecret(file: string): Buffer {
  ensurePrivateDirSync(path.dirname(file));
  const secret = randomBytes(SECRET_BYTES);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = createPrivateFileSync(tmp);
  try {
    writeSync(fd, secret.toString('hex'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, file);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readSecret(file)!;
  } finally {
    rmSync(tmp, { force: true });
  }
}
