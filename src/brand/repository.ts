import { countRows, type Db, ofTeam } from '../storage/index.js';
import type { BrandAssetsTable } from './tables.js';

export type BrandAssetRow = BrandAssetsTable;

/** The team's assets: its logo first, then fonts by name. */
export async function listBrandAssets(db: Db, teamId: string): Promise<BrandAssetRow[]> {
  return ofTeam(db.selectFrom('brand_assets').selectAll(), teamId)
    .orderBy('kind', 'desc')
    .orderBy('name')
    .execute();
}

export async function findBrandAsset(db: Db, id: string): Promise<BrandAssetRow | null> {
  return (await db.selectFrom('brand_assets').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The rows a new upload replaces: the team's logo, or its font of the same name. */
export async function findReplaced(db: Db, teamId: string, kind: 'logo' | 'font', name: string) {
  let query = ofTeam(db.selectFrom('brand_assets').selectAll(), teamId).where('kind', '=', kind);
  if (kind === 'font') query = query.where('name', '=', name);
  return query.execute();
}

export async function countFonts(db: Db, teamId: string): Promise<number> {
  return countRows(ofTeam(db.selectFrom('brand_assets'), teamId).where('kind', '=', 'font'));
}

export async function deleteBrandAssets(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('brand_assets').where('id', 'in', ids).execute();
}

export async function insertBrandAsset(db: Db, row: BrandAssetRow): Promise<void> {
  await db.insertInto('brand_assets').values(row).execute();
}
