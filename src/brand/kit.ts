import type { BrandKit, BrandPort } from '../production/index.js';
import type { LocalResource } from '../render/index.js';
import type { BlobStore, Db } from '../storage/index.js';
import { BRAND_PATH, type BrandLinks, brandResource, brandUrl } from './links.js';
import { type BrandAssetRow, listBrandAssets } from './repository.js';

/** The CSS `format()` hint of each stored font type. */
const CSS_FORMAT: Record<string, string> = { woff2: 'woff2', ttf: 'truetype', otf: 'opentype' };

export interface BrandKitDeps {
  db: Db;
  blobs: Pick<BlobStore, 'get'>;
  links: BrandLinks;
}

/** The Liquid `brand` variable: `logo_url` when there is a logo, `fonts.<name>.{url, format, family}`. */
function brandVariable(rows: readonly BrandAssetRow[], links: BrandLinks): Record<string, unknown> {
  const logo = rows.find((row) => row.kind === 'logo');
  const fonts = Object.fromEntries(
    rows
      .filter((row) => row.kind === 'font')
      .map((row) => [
        row.name,
        { url: brandUrl(row, links), format: CSS_FORMAT[row.ext], family: row.family },
      ]),
  );
  return { ...(logo ? { logo_url: brandUrl(logo, links) } : {}), fonts };
}

/**
 * Answers the render's requests for the team's own brand-asset links from the blob store, so Chromium never
 * reaches the server (the fetcher refuses this host anyway). A brand-asset link of another team, or with a
 * wrong signature, is refused and listed as a blocked resource; any other URL is left to the fetcher.
 */
function brandResources(rows: readonly BrandAssetRow[], deps: BrandKitDeps) {
  const base = new URL(`${deps.links.publicUrl()}${BRAND_PATH}`);
  const byFile = new Map(rows.map((row) => [`${row.id}.${row.ext}`, row]));
  return async (raw: string): Promise<LocalResource | null> => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
    const row = byFile.get(url.pathname.slice(base.pathname.length));
    if (!row) return { ok: false, reason: 'not a brand asset of this team' };
    const sig = url.searchParams.get('sig') ?? undefined;
    if (!deps.links.signer.verifyPermanent(brandResource(row.id, row.ext), sig))
      return { ok: false, reason: 'the brand asset link signature is invalid' };
    const body = await deps.blobs.get(row.blob_key);
    return body
      ? { ok: true, contentType: row.content_type, body }
      : { ok: false, reason: 'brand asset gone' };
  };
}

/** The production port: one indexed read of the team's asset rows per render; bytes only when asked for. */
export function createBrandPort(deps: BrandKitDeps): BrandPort {
  return {
    async forTeam(teamId: string): Promise<BrandKit | null> {
      const rows = await listBrandAssets(deps.db, teamId);
      if (rows.length === 0) return null;
      return { variable: brandVariable(rows, deps.links), resources: brandResources(rows, deps) };
    },
  };
}
