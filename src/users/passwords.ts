import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../shared/errors.js';

/** Contract: a password has 10 to 200 characters. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** argon2id with the library's defaults (19 MiB, 2 passes: OWASP's minimum recommendation). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A hash of no one's password: verified against on an unknown email so both answers take as long. */
let dummyHash: Promise<string> | null = null;

/**
 * Checks a password against a stored hash; with no hash (unknown email or no password set) it still runs
 * one argon2 verification, so the timing does not tell an unknown email from a wrong password.
 */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  if (stored) return verify(stored, password).catch(() => false);
  dummyHash ??= hash('quire-dummy-password-for-timing');
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
