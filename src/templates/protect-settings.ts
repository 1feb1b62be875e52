import {
  isShownProtect,
  isStoredProtect,
  openProtect,
  type PasswordBox,
  type ProtectOption,
  type StoredProtect,
  sealProtect,
  showProtect,
} from '../finishing/index.js';
import type { ResolvedTemplate } from '../production/index.js';
import { AppError } from '../shared/errors.js';
import type { TemplateSettings } from './settings.js';
import { canonicalJson } from './versions.js';

/**
 * A template's `protect` (extension): its passwords are stored only sealed (PasswordBox), opened only to
 * render, and every answer shows `{ permissions, owner_password_set, user_password_set }` instead. Sending
 * that shown form back (a PUT of the settings as read) keeps the passwords the version was made from.
 */
export function settingsToStore(
  box: PasswordBox,
  sent: TemplateSettings,
  current: TemplateSettings | null,
): TemplateSettings {
  const protect = sent.protect;
  if (protect === undefined) return sent;
  const kept = current?.protect;
  if (!isShownProtect(protect)) {
    // The same passwords again keep the same sealed value (sealing is randomised): no new version.
    if (isStoredProtect(kept) && sameProtect(box, kept, protect)) return { ...sent, protect: kept };
    return { ...sent, protect: sealProtect(box, protect) };
  }
  if (!isStoredProtect(kept))
    throw new AppError(
      'invalid_request',
      '"settings.protect" has no stored passwords to keep: send "owner_password" (and "user_password" if the file should need one to open).',
      { field: 'settings/protect/owner_password' },
    );
  if (protect.user_password_set !== undefined && protect.user_password_set !== kept.user_password_set)
    throw new AppError(
      'invalid_request',
      `"settings.protect.user_password_set" cannot change the stored passwords (it is ${kept.user_password_set}): send "owner_password", and "user_password" if the file should need one to open.`,
      { field: 'settings/protect/user_password' },
    );
  const stored: StoredProtect = {
    ...(protect.permissions === undefined ? {} : { permissions: protect.permissions }),
    owner_password_set: true,
    user_password_set: kept.user_password_set,
    sealed_passwords: kept.sealed_passwords,
  };
  return { ...sent, protect: stored };
}

/** Whether `sent` asks for exactly what `stored` holds (false when its passwords no longer open). */
function sameProtect(box: PasswordBox, stored: StoredProtect, sent: ProtectOption): boolean {
  let opened: ProtectOption;
  try {
    opened = openProtect(box, stored);
  } catch {
    return false;
  }
  return (
    opened.owner_password === sent.owner_password &&
    (opened.user_password ?? '') === (sent.user_password ?? '') &&
    canonicalJson(opened.permissions ?? null) === canonicalJson(sent.permissions ?? null)
  );
}

/** The settings as an answer shows them: never the passwords, sealed or not. */
export function settingsToShow(settings: TemplateSettings): TemplateSettings {
  return isStoredProtect(settings.protect)
    ? { ...settings, protect: showProtect(settings.protect) }
    : settings;
}

/** Previews are never encrypted (production drops `protect` for them): no passwords to open. */
export function settingsForPreview(settings: TemplateSettings): ResolvedTemplate['settings'] {
  const { protect, ...rest } = settings;
  return rest;
}

/** The settings a render uses: the passwords opened for the protection step. */
export function settingsToRender(box: PasswordBox, settings: TemplateSettings): ResolvedTemplate['settings'] {
  const { protect, ...rest } = settings;
  if (isStoredProtect(protect)) return { ...rest, protect: openProtect(box, protect) };
  // Settings saved before passwords were sealed have no `protect`; a shown one cannot be stored.
  return rest;
}
