import type { AuthContext } from '../accounts/index.js';
import { decodeBase64 } from '../shared/base64.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { type RateCounter, spendBudget } from '../shared/rate-counter.js';
import { testModeGuard } from '../shared/test-mode-guard.js';
import type { BlobStore, Db } from '../storage/index.js';
import type { UploadReader } from './files.js';
import {
  type BrandAssetRow,
  countFonts,
  deleteBrandAssets,
  findBrandAsset,
  findReplaced,
  insertBrandAsset,
} from './repository.js';

/** A team keeps at most this many fonts (each served to every render that names it). */
export const MAX_FONTS = 20;
/** Uploads and deletions per minute per team, like template changes. */
const CHANGES_PER_MIN = 60;
/** A font's name is how templates address it: `{{ brand.fonts.<name>.url }}`. */
const FONT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export interface BrandServiceDeps {
  db: Db;
  blobs: Pick<BlobStore, 'put' | 'delete'>;
  clock: Clock;
  rate: RateCounter;
  /** Where the uploaded file is read (off the main thread, on a budget). */
  untrusted: UploadReader;
}

export interface UploadBody {
  kind: 'logo' | 'font';
  name: string;
  content_base64: string;
}

/** Like templates (spec: Authentication 4): test keys read brand assets, live keys and sessions change them. */
const assertLiveKey = testModeGuard({
  session:
    'Test mode can read brand assets but not change them: switch to Live mode to upload or delete them.',
  key: 'Test keys can read brand assets but not change them; use a live key.',
});

async function beginChange(deps: BrandServiceDeps, auth: AuthContext): Promise<void> {
  assertLiveKey(auth);
  await spendBudget(deps.rate, {
    key: `brand:changes:${auth.team.id}`,
    limit: CHANGES_PER_MIN,
    nowMs: deps.clock.now().getTime(),
    message: `More than ${CHANGES_PER_MIN} brand asset changes per minute.`,
  });
}

function assertFontName(name: string): void {
  if (!FONT_NAME.test(name))
    throw new AppError(
      'invalid_request',
      'A font name starts with a letter and has only letters, digits and _ (at most 64): templates use it as brand.fonts.<name>.',
      { field: 'name' },
    );
}

/**
 * Stores a logo (replacing the team's logo) or a font (replacing the team's font of that name). The new
 * file gets a new id and key, so links to the old one never show the new content; the old file is
 * deleted once the new row has committed.
 */
export async function uploadBrandAsset(
  deps: BrandServiceDeps,
  auth: AuthContext,
  body: UploadBody,
): Promise<BrandAssetRow> {
  await beginChange(deps, auth);
  const teamId = auth.team.id;
  if (body.kind === 'font') assertFontName(body.name);
  const raw = decodeBase64(body.content_base64);
  const file =
    body.kind === 'logo'
      ? await deps.untrusted.logo(teamId, raw, 'content_base64')
      : await deps.untrusted.font(teamId, raw, 'content_base64');
  const id = newId();
  const row: BrandAssetRow = {
    id,
    team_id: teamId,
    kind: body.kind,
    name: body.name,
    content_type: file.contentType,
    ext: file.ext,
    bytes: file.bytes.length,
    family: file.family,
    blob_key: `brand/${teamId}/${id}.${file.ext}`,
    created_at: deps.clock.now().toISOString(),
  };
  await deps.blobs.put(row.blob_key, file.bytes);
  let replaced: BrandAssetRow[];
  try {
    replaced = await deps.db.transaction().execute(async (trx) => {
      const old = await findReplaced(trx, teamId, body.kind, body.name);
      if (body.kind === 'font' && old.length === 0 && (await countFonts(trx, teamId)) >= MAX_FONTS)
        throw new AppError(
          'plan_limit_reached',
          `A team keeps at most ${MAX_FONTS} fonts; delete one first.`,
          { limit: 'brand_fonts', max: MAX_FONTS },
        );
      await deleteBrandAssets(
        trx,
        old.map((o) => o.id),
      );
      await insertBrandAsset(trx, row);
      return old;
    });
  } catch (err) {
    await deps.blobs.delete(row.blob_key);
    throw err;
  }
  for (const old of replaced) await deps.blobs.delete(old.blob_key);
  return row;
}

/** Deletes one of the team's assets; its link then answers 404. */
export async function deleteBrandAsset(deps: BrandServiceDeps, auth: AuthContext, id: string): Promise<void> {
  await beginChange(deps, auth);
  const row = await findBrandAsset(deps.db, id);
  if (!row || row.team_id !== auth.team.id)
    throw new AppError('not_found', `No brand asset ${id} in this workspace.`);
  await deleteBrandAssets(deps.db, [id]);
  await deps.blobs.delete(row.blob_key);
}
