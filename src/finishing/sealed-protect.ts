import { AppError } from '../shared/errors.js';
import type { FinishingOptions, ProtectOption } from './schema.js';

/**
 * Seals and opens secrets with a key derived from the server secret (the webhooks' SecretBox with a
 * purpose of its own, built by the composition root): passwords are stored only sealed.
 */
export interface PasswordBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/** The HKDF purpose of the box that seals `protect` passwords (no other secret opens with it). */
export const PROTECT_PASSWORDS_PURPOSE = 'quire protect passwords v1';

type Permissions = NonNullable<ProtectOption['permissions']>;

/**
 * `protect` as it is shown back (template settings): the permissions, and whether each password is set —
 * never the passwords. Sent back unchanged in a template's settings, it keeps the stored passwords.
 */
export interface ShownProtect {
  permissions?: Permissions;
  owner_password_set: true;
  user_password_set: boolean;
}

/** `protect` at rest (a queued job's payload, a template version's settings): the passwords sealed. */
export interface StoredProtect extends ShownProtect {
  /** PasswordBox-sealed JSON `{ owner_password, user_password? }`. */
  sealed_passwords: string;
}

interface Passwords {
  owner_password: string;
  user_password?: string;
}

export function sealProtect(box: PasswordBox, protect: ProtectOption): StoredProtect {
  const passwords: Passwords = {
    owner_password: protect.owner_password,
    ...(protect.user_password === undefined ? {} : { user_password: protect.user_password }),
  };
  return {
    ...(protect.permissions === undefined ? {} : { permissions: protect.permissions }),
    owner_password_set: true,
    user_password_set: Boolean(protect.user_password),
    sealed_passwords: box.seal(JSON.stringify(passwords)),
  };
}

/** The passwords back, for the protection step only (the worker, a template's render). */
export function openProtect(box: PasswordBox, stored: StoredProtect): ProtectOption {
  let passwords: Passwords;
  try {
    passwords = JSON.parse(box.open(stored.sealed_passwords)) as Passwords;
  } catch {
    // A server secret changed since it was sealed: say so rather than encrypt with a wrong password.
    throw new AppError(
      'render_failed',
      'The stored "protect" passwords cannot be opened (the server secret changed since they were saved): send "protect" again.',
    );
  }
  return {
    owner_password: passwords.owner_password,
    ...(passwords.user_password === undefined ? {} : { user_password: passwords.user_password }),
    ...(stored.permissions === undefined ? {} : { permissions: stored.permissions }),
  };
}

export function showProtect(stored: StoredProtect): ShownProtect {
  return {
    ...(stored.permissions === undefined ? {} : { permissions: stored.permissions }),
    owner_password_set: true,
    user_password_set: stored.user_password_set,
  };
}

export function isStoredProtect(value: unknown): value is StoredProtect {
  return typeof value === 'object' && value !== null && 'sealed_passwords' in value;
}

/** A shown (password-less) `protect`, as a template's settings send it back to keep the stored passwords. */
export function isShownProtect(value: unknown): value is ShownProtect {
  return (
    typeof value === 'object' &&
    value !== null &&
    'owner_password_set' in value &&
    !('owner_password' in value)
  );
}

/**
 * A queued request (async, a batch item) as its job stores it: without `protect`, whose passwords travel
 * sealed beside it and are opened by the worker at the protection step (openQueuedProtect). The job
 * queue erases the payload when the job reaches a final state.
 */
export function sealQueuedProtect<T extends FinishingOptions>(
  box: PasswordBox,
  request: T,
): { request: T; protect?: StoredProtect } {
  if (request.protect === undefined) return { request };
  const { protect, ...rest } = request;
  return { request: rest as T, protect: sealProtect(box, protect) };
}

/** The queued request with its `protect` opened again (the inverse of sealQueuedProtect). */
export function openQueuedProtect<T extends FinishingOptions>(
  box: PasswordBox,
  request: T,
  protect: StoredProtect | undefined,
): T {
  return protect === undefined ? request : { ...request, protect: openProtect(box, protect) };
}
