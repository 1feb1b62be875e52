import type { BlobStore, Db } from '../storage/index.js';

/**
 * Tables holding a team's rows by `team_id`, children before parents (foreign keys are on). An operator's
 * erase spans every capability at once, so it lives here with the command rather than in each repository;
 * a capability adding a team-owned table adds it to this list (the CLI test checks a deleted team leaves no row).
 */
const TEAM_TABLES = [
  'idempotency_keys',
  'email_deliveries',
  'email_suppressions',
  'webhook_deliveries',
  'webhook_events',
  'webhook_endpoints',
  'jobs',
  'document_activity',
  'documents',
  'brand_assets',
  'certificates',
  'templates',
  'batches',
  'usage_records',
  'usage_counters',
  'team_plan_changes',
  'api_keys',
  'sessions',
  'memberships',
  'user_tokens',
] as const;

export interface ErasedTeam {
  rows: number;
  files: number;
}

/**
 * Erases a team and everything it owns in one transaction, then the stored files the rows pointed to
 * (documents, thumbnails, batch ZIPs). Returns null when no such team exists. Files go after the commit: a
 * crash in between leaves orphan files, never rows pointing at missing files.
 */
export async function eraseTeam(db: Db, blobs: BlobStore, teamId: string): Promise<ErasedTeam | null> {
  const result = await db.transaction().execute(async (trx) => {
    const team = await trx.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst();
    if (!team) return null;
    const keys = await blobKeysOf(trx, teamId);
    let rows = 0;
    const templateIds = trx.selectFrom('templates').select('id').where('team_id', '=', teamId);
    const batchIds = trx.selectFrom('batches').select('id').where('team_id', '=', teamId);
    rows += count(
      await trx.deleteFrom('template_versions').where('template_id', 'in', templateIds).execute(),
    );
    rows += count(await trx.deleteFrom('batch_items').where('batch_id', 'in', batchIds).execute());
    for (const table of TEAM_TABLES)
      rows += count(await trx.deleteFrom(table).where('team_id', '=', teamId).execute());
    rows += count(await trx.deleteFrom('teams').where('id', '=', teamId).execute());
    return { rows, keys };
  });
  if (!result) return null;
  for (const key of result.keys) await blobs.delete(key);
  return { rows: result.rows, files: result.keys.length };
}

async function blobKeysOf(db: Db, teamId: string): Promise<string[]> {
  const docs = await db
    .selectFrom('documents')
    .select(['blob_key', 'thumbnail_key'])
    .where('team_id', '=', teamId)
    .execute();
  const thumbnails = await db
    .selectFrom('template_versions')
    .innerJoin('templates', 'templates.id', 'template_versions.template_id')
    .select('template_versions.thumbnail_key')
    .where('templates.team_id', '=', teamId)
    .execute();
  const zips = await db.selectFrom('batches').select('zip_key').where('team_id', '=', teamId).execute();
  const brand = await db
    .selectFrom('brand_assets')
    .select('blob_key')
    .where('team_id', '=', teamId)
    .execute();
  return [
    ...brand.map((b) => b.blob_key),
    ...docs.flatMap((d) => [d.blob_key, d.thumbnail_key]),
    ...thumbnails.map((t) => t.thumbnail_key),
    ...zips.map((z) => z.zip_key),
  ].filter((key): key is string => key !== null);
}

function count(results: ReadonlyArray<{ numDeletedRows: bigint }>): number {
  return results.reduce((sum, r) => sum + Number(r.numDeletedRows), 0);
}
