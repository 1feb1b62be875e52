import type { Selectable } from 'kysely';
import type { Db } from '../storage/index.js';
import type { TemplatesTable, TemplateVersionsTable } from './tables.js';

export type TemplateRow = Selectable<TemplatesTable>;
export type VersionRow = Selectable<TemplateVersionsTable>;

/** A team's template that is not deleted (deleted, unknown and other teams' templates all read as null). */
export async function findTemplate(db: Db, teamId: string, id: string): Promise<TemplateRow | null> {
  const row = await db
    .selectFrom('templates')
    .selectAll()
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

/** Any template by id, for signed links (the signature stands in for the team). */
export async function findTemplateById(db: Db, id: string): Promise<TemplateRow | null> {
  return (await db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findVersion(db: Db, templateId: string, version: number): Promise<VersionRow | null> {
  const row = await db
    .selectFrom('template_versions')
    .selectAll()
    .where('template_id', '=', templateId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row ?? null;
}

/** Most recently updated first (spec: GET /templates); ties broken by id so pages are stable. */
export function listTemplates(db: Db, teamId: string, limit: number, offset: number): Promise<TemplateRow[]> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('deleted_at', 'is', null)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export function listVersions(
  db: Db,
  templateId: string,
): Promise<Array<{ version: number; created_at: string }>> {
  return db
    .selectFrom('template_versions')
    .select(['version', 'created_at'])
    .where('template_id', '=', templateId)
    .orderBy('version', 'desc')
    .execute();
}

export async function versionNumbers(db: Db, templateId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('template_versions')
    .select('version')
    .where('template_id', '=', templateId)
    .execute();
  return rows.map((r) => r.version);
}

/** Templates of a team: not deleted, and all rows still kept (deleted ones until their erasure). */
export async function countTemplates(db: Db, teamId: string): Promise<{ live: number; all: number }> {
  const row = await db
    .selectFrom('templates')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('all'),
      eb.fn.count<number | string>('id').filterWhere('deleted_at', 'is', null).as('live'),
    ])
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return { live: Number(row.live), all: Number(row.all) };
}

export async function insertTemplate(db: Db, template: TemplateRow, version: VersionRow): Promise<void> {
  await db.insertInto('templates').values(template).execute();
  await db.insertInto('template_versions').values(version).execute();
}

export async function insertVersion(db: Db, version: VersionRow): Promise<void> {
  await db.insertInto('template_versions').values(version).execute();
}

export async function updateTemplateRow(
  db: Db,
  id: string,
  changes: Partial<Omit<TemplateRow, 'id' | 'team_id'>>,
): Promise<void> {
  await db.updateTable('templates').set(changes).where('id', '=', id).execute();
}

export async function setThumbnailKey(
  db: Db,
  templateId: string,
  version: number,
  key: string,
): Promise<void> {
  await db
    .updateTable('template_versions')
    .set({ thumbnail_key: key })
    .where('template_id', '=', templateId)
    .where('version', '=', version)
    .execute();
}

/** Deletes the given versions; returns the thumbnail blob keys they had, for the caller to delete. */
export async function deleteVersions(db: Db, templateId: string, versions: number[]): Promise<string[]> {
  if (versions.length === 0) return [];
  const gone = await db
    .selectFrom('template_versions')
    .select('thumbnail_key')
    .where('template_id', '=', templateId)
    .where('version', 'in', versions)
    .execute();
  await db
    .deleteFrom('template_versions')
    .where('template_id', '=', templateId)
    .where('version', 'in', versions)
    .execute();
  return gone.flatMap((r) => (r.thumbnail_key ? [r.thumbnail_key] : []));
}
