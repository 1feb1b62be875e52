import type { LinkSigner } from '../documents/index.js';
import type { BrandAssetRow } from './repository.js';

/** Where brand assets are served (spec: GET /brand-assets/<file>, under /v1 like every signed link). */
export const BRAND_PATH = '/v1/brand-assets/';

export interface BrandLinks {
  signer: LinkSigner;
  publicUrl(): string;
}

/** The signed resource of an asset: its id and extension, so a link cannot be moved to another file. */
export function brandResource(id: string, ext: string): string {
  return `brand:${id}.${ext}`;
}

/**
 * The asset's permanent link (spec: `sig` only). A new upload gets a new id, so a link's content never
 * changes and may be cached for good; a deleted asset's link answers 404.
 */
export function brandUrl(row: Pick<BrandAssetRow, 'id' | 'ext'>, links: BrandLinks): string {
  const file = `${row.id}.${row.ext}`;
  return `${links.publicUrl()}${BRAND_PATH}${file}?sig=${links.signer.signPermanent(brandResource(row.id, row.ext))}`;
}
