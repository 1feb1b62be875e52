import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import { type Database, type Db, ofTeam, valuesOf } from '../storage/index.js';
import type { TemplatesTable, TemplateVersionsTable } from './tables.js';

export type TemplateRow = Selectable<TemplatesTable>;
export type VersionRow = Selectable<TemplateVersionsTable>;

/** Which template versions a query on template_versions is about. */
type VersionFilter = (eb: ExpressionBuilder<Database, 'template_versions'>) => Expression<SqlBool>;

/** One version of a template (its key). */
function theVersion(templateId: string, version: number): VersionFilter {
  return (eb) => eb.and({ template_id: templateId, version });
}

/** A team's template that is not deleted (deleted, unknown and other teams' templates all read as null). */
export async function findTemplate(db: Db, teamId: string, id: string): Promise<TemplateRow | null> {
  return (
    (await ofTeam(db.selectFrom('templates').selectAll(), teamId, id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()) ?? null
  );
}

/** Any template by id, for signed links (the signature stands in for the team). */
export async function findTemplateById(db: Db, id: string): Promise<TemplateRow | null> {
  return (await db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findVersion(db: Db, templateId: string, version: number): Promise<VersionRow | null> {
  return (
    (await db
      .selectFrom('template_versions')
      .selectAll()
      .where(theVersion(templateId, version))
      .executeTakeFirst()) ?? null
  );
}

/** Most recently updated first (spec: GET /templates); ties broken by id so pages are stable. */
export function listTemplates(db: Db, teamId: string, limit: number, offset: number): Promise<TemplateRow[]> {
  return ofTeam(db.selectFrom('templates').selectAll(), teamId)
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
): Promise<Array<{ version: number; created_at: string; message: string | null; author: string | null }>> {
  return db
    .selectFrom('template_versions')
    .select(['version', 'created_at', 'message', 'author'])
    .where('template_id', '=', templateId)
    .orderBy('version', 'desc')
    .execute();
}

export async function versionNumbers(db: Db, templateId: string): Promise<number[]> {
  return valuesOf(
    db.selectFrom('template_versions').select('version').where('template_id', '=', templateId),
    'version',
  );
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
    .where(theVersion(templateId, version))
    .execute();
}

/** Deletes the given versions; returns the thumbnail blob keys they had, for the caller to delete. */
export async function deleteVersions(db: Db, templateId: string, versions: number[]): Promise<string[]> {
  if (versions.length === 0) return [];
  return deleteVersionsWhere(db, (eb) =>
    eb.and([eb('template_id', '=', templateId), eb('version', 'in', versions)]),
  );
}

/** Deletes the versions `which` picks; returns the thumbnail blob keys they had, for the caller to delete. */
export async function deleteVersionsWhere(db: Db, which: VersionFilter): Promise<string[]> {
  const gone = await db.selectFrom('template_versions').select('thumbnail_key').where(which).execute();
  await db.deleteFrom('template_versions').where(which).execute();
  return gone.flatMap((r) => (r.thumbnail_key ? [r.thumbnail_key] : []));
}
