import { type Algorithm, hash, type Options, parseOptions, verify } from '@node-rs/argon2';
import { AppError } from '../shared/errors.js';

/** Contract: a password has 10 to 200 characters. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/**
 * argon2id pinned to OWASP's Password Storage Cheat Sheet configuration m=19 MiB (19456 KiB), t=2, p=1 rather
 * than left to the library's defaults, which could change under an upgrade. Of OWASP's equivalent
 * configurations it is the one with the least memory per verification: a small server verifies several
 * sign-ins at once, and 19 MiB each keeps that bounded (m=46 MiB t=1 buys no more resistance). Hashes made
 * with other parameters are replaced at the next successful sign-in (`needsRehash`).
 */
const ARGON2: Options = {
  // The library's const enum cannot be read under isolatedModules: 2 is Algorithm.Argon2id.
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** True when a stored hash was made with other parameters than ARGON2 (or cannot be read). */
export function needsRehash(stored: string): boolean {
  try {
    const used = parseOptions(stored);
    return (
      used.algorithm !== ARGON2.algorithm ||
      // 1 is Version.V0x13 (argon2 1.3), the only version this library writes.
      used.version !== 1 ||
      used.memoryCost !== ARGON2.memoryCost ||
      used.timeCost !== ARGON2.timeCost ||
      used.parallelism !== ARGON2.parallelism ||
      used.outputLen !== ARGON2.outputLen
    );
  } catch {
    return true;
  }
}

/** A hash of no one's password: verified against on an unknown email so both answers take as long. */
let dummyHash: Promise<string> | null = null;

/**
 * Checks a password against a stored hash; with no hash (unknown email or no password set) it still runs
 * one argon2 verification, so the timing does not tell an unknown email from a wrong password.
 */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  if (stored) return verify(stored, password).catch(() => false);
  dummyHash ??= hashPassword('quire-dummy-password-for-timing');
  await verify(await dummyHash, password).catch(() => false);
  return false;
}

/** The contract's password rule, as a 400 `invalid_request` saying how to fix it. */
export function checkPasswordRule(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    throw new AppError(
      'invalid_request',
      `The password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters; it has ${length}.`,
      { field: 'password' },
    );
  }
}
