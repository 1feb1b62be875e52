/**
 * Unsaved template edits kept in this browser (localStorage), one per team and template, so a crash, a
 * reload or a closed tab does not lose them: the editor offers them back when the template opens again.
 */
export interface StoredDraft {
  html: string;
  css: string;
  /** The sample-data pane's text as typed (it may not parse yet). */
  data: string;
  settings: Record<string, unknown>;
  /** The template version the edits started from. */
  base_version: number;
  saved_at: string;
}

const PREFIX = 'quire:draft:';

function keyOf(teamId: string, templateId: string): string {
  return `${PREFIX}${teamId}:${templateId}`;
}

function isDraft(value: unknown): value is StoredDraft {
  const d = value as StoredDraft | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.html === 'string' &&
    typeof d.css === 'string' &&
    typeof d.data === 'string' &&
    typeof d.settings === 'object' &&
    d.settings !== null &&
    typeof d.base_version === 'number' &&
    typeof d.saved_at === 'string'
  );
}

export function readDraft(teamId: string, templateId: string): StoredDraft | null {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(keyOf(teamId, templateId)) ?? 'null');
    return isDraft(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The settings as a draft may keep them: `protect` with passwords typed in is left out (the server stores
 * them only sealed; this browser's storage would keep them in clear text for anyone who opens it), so a
 * restored draft asks for the protection again. A `protect` as the server shows it (`*_password_set`) stays.
 */
export function withoutPasswords(settings: Record<string, unknown>): Record<string, unknown> {
  const protect = settings.protect as Record<string, unknown> | null | undefined;
  if (!protect || typeof protect !== 'object') return settings;
  if (!('owner_password' in protect) && !('user_password' in protect)) return settings;
  const { protect: _typed, ...rest } = settings;
  return rest;
}

/** False when the browser refuses (storage full or disabled): the editor says so instead of pretending. */
export function writeDraft(teamId: string, templateId: string, draft: StoredDraft): boolean {
  try {
    const stored: StoredDraft = { ...draft, settings: withoutPasswords(draft.settings) };
    localStorage.setItem(keyOf(teamId, templateId), JSON.stringify(stored));
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(teamId: string, templateId: string): void {
  try {
    localStorage.removeItem(keyOf(teamId, templateId));
  } catch {
    // Storage disabled: there is nothing to clear.
  }
}
