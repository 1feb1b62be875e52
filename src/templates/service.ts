import type { AuthContext } from '../accounts/index.js';
import type { PasswordBox } from '../finishing/index.js';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import { type BlobStore, type Db, lockKey } from '../storage/index.js';
import { checkContent } from './content.js';
import type { TemplateEngine } from './engine-port.js';
import { assertTemplateQuota } from './limits.js';
import { settingsToStore } from './protect-settings.js';
import {
  contentOf,
  notFound,
  readTemplate,
  type TemplateAtVersion,
  type VersionNote,
  versionNotFound,
  versionRow,
} from './records.js';
import {
  countTemplates,
  deleteVersions,
  findTemplate,
  findVersion,
  insertTemplate,
  insertVersion,
  type TemplateRow,
  updateTemplateRow,
  versionNumbers,
} from './repository.js';
import type { TemplateSettings } from './settings.js';
import { type ContentPatch, nextContent, type VersionContent, versionsToPrune } from './versions.js';

export interface TemplateStoreDeps {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  engine: TemplateEngine;
  passwords: PasswordBox;
}

export interface CreateTemplateInput {
  name: string;
  html: string;
  css?: string;
  sample_data?: Record<string, unknown>;
  settings?: TemplateSettings;
  /** Extension: a note on the version this makes. */
  message?: string;
}

export interface UpdateTemplateInput extends ContentPatch {
  name?: string;
  /** Extension: a note on the version this makes (ignored when no version is made). */
  message?: string;
  /** Who makes the version (see authorOf); null when unknown. */
  author?: string | null;
}

/**
 * The identity a request carries, as a version's author: the signed-in user's email, or the API key's name
 * and prefix (the prefix is what the dashboard's key list shows; the key itself is never stored).
 */
export function authorOf(auth: AuthContext): string | null {
  if (auth.session) return auth.session.email;
  return auth.key ? `${auth.key.name} (${auth.key.prefix}…)` : null;
}

/** The note a version is saved with: a blank message is no message. */
function noteOf(message: string | undefined, author: string | null | undefined): VersionNote {
  const text = message?.trim();
  return { message: text ? text : null, author: author ?? null };
}

/** POST /templates: parsed on save, quota checked and row written in one transaction (spec: version 1). */
export async function createTemplate(
  deps: TemplateStoreDeps,
  auth: AuthContext,
  input: CreateTemplateInput,
): Promise<TemplateAtVersion> {
  await checkContent(deps.engine, input);
  const { template, version } = firstVersion(deps, auth.team.id, input, authorOf(auth));
  await teamTemplatesTransaction(deps.db, auth.team.id, async (trx) => {
    assertTemplateQuota(await countTemplates(trx, auth.team.id), auth.plan);
    await insertTemplate(trx, template, version);
  });
  return { template, version };
}

/** The rows of a new template at version 1, its `protect` passwords sealed. */
function firstVersion(
  deps: Pick<TemplateStoreDeps, 'clock' | 'passwords'>,
  teamId: string,
  input: CreateTemplateInput,
  author: string | null,
): TemplateAtVersion {
  const at = deps.clock.now().toISOString();
  const template: TemplateRow = {
    id: newId(),
    team_id: teamId,
    name: input.name,
    current_version: 1,
    pinned_version: null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  };
  const content: VersionContent = {
    html: input.html,
    css: input.css ?? null,
    sampleData: input.sample_data ?? null,
    settings: settingsToStore(deps.passwords, input.settings ?? {}, null),
  };
  return { template, version: versionRow(template.id, 1, content, at, noteOf(input.message, author)) };
}

/** Deletes thumbnails of pruned versions once their rows are gone (a leftover file is harmless). */
async function dropThumbnails(blobs: BlobStore, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => blobs.delete(key)));
}

/** Deletes versions outside "latest 50 plus pinned" (spec: Template versions) inside the caller's transaction. */
async function prune(trx: Db, template: TemplateRow): Promise<string[]> {
  const doomed = versionsToPrune(
    await versionNumbers(trx, template.id),
    template.current_version,
    template.pinned_version,
  );
  return deleteVersions(trx, template.id, doomed);
}

/**
 * PUT /templates/<id> (spec: Template versions): content changes make the next version, a name-only PUT
 * renames, a PUT that changes nothing changes nothing. Answers the template at its current version.
 */
export async function updateTemplate(
  deps: TemplateStoreDeps,
  teamId: string,
  id: string,
  input: UpdateTemplateInput,
): Promise<TemplateAtVersion> {
  await checkContent(deps.engine, input);
  const at = deps.clock.now().toISOString();
  const { result, dropped } = await teamTemplatesTransaction(deps.db, teamId, async (trx) => {
    let { template, version } = await readTemplate(trx, teamId, id, (t) => t.current_version);
    const current = contentOf(version);
    // A `protect` shown without its passwords keeps the current version's sealed ones.
    const patch =
      input.settings === undefined
        ? input
        : { ...input, settings: settingsToStore(deps.passwords, input.settings, current.settings) };
    const next = nextContent(current, patch);
    const renamed = input.name !== undefined && input.name !== template.name;
    let dropped: string[] = [];
    if (next) {
      const note = noteOf(input.message, input.author);
      version = versionRow(id, template.current_version + 1, next, at, note);
      await insertVersion(trx, version);
      template = { ...template, current_version: version.version };
      dropped = await prune(trx, template);
    }
    if (renamed) template = { ...template, name: input.name as string };
    if (next || renamed) {
      template = { ...template, updated_at: at };
      const { name, current_version, updated_at } = template;
      await updateTemplateRow(trx, id, { name, current_version, updated_at });
    }
    return { result: { template, version }, dropped };
  });
  await dropThumbnails(deps.blobs, dropped);
  return result;
}

/** POST /templates/<id>/pin: pin a version that exists, or unpin with null; then re-apply retention. */
export async function pinTemplate(
  deps: TemplateStoreDeps,
  teamId: string,
  id: string,
  version: number | null,
): Promise<TemplateRow> {
  const at = deps.clock.now().toISOString();
  const { template, dropped } = await teamTemplatesTransaction(deps.db, teamId, async (trx) => {
    const found = await findTemplate(trx, teamId, id);
    if (!found) throw notFound(id);
    if (version !== null && !(await findVersion(trx, id, version))) throw versionNotFound(id, version);
    const template = { ...found, pinned_version: version, updated_at: at };
    await updateTemplateRow(trx, id, { pinned_version: version, updated_at: at });
    // Unpinning (or moving the pin) can leave an old version outside "latest 50 plus pinned".
    return { template, dropped: await prune(trx, template) };
  });
  await dropThumbnails(deps.blobs, dropped);
  return template;
}

/** DELETE /templates/<id>: renders fail from now on; the sweep erases it 30 days later. */
export async function deleteTemplate(deps: TemplateStoreDeps, teamId: string, id: string): Promise<void> {
  const at = deps.clock.now().toISOString();
  await teamTemplatesTransaction(deps.db, teamId, async (trx) => {
    if (!(await findTemplate(trx, teamId, id))) throw notFound(id);
    await updateTemplateRow(trx, id, { deleted_at: at });
  });
}

/**
 * A team's template writes one after the other: they read, then write what they read (the quota count, the
 * next version number, the versions to prune). SQLite serializes writers anyway; on PostgreSQL two updates
 * of one template would both write version N+1.
 */
function teamTemplatesTransaction<T>(db: Db, teamId: string, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, `templates:${teamId}`);
    return work(trx);
  });
}
