import { unwrap } from '../core.js';
import { type PagedList, singlePage } from '../pagination.js';
import type { BrandAsset, UploadBrandAsset } from '../types.js';
import { Resource } from './resource.js';

/** Logos and fonts templates use: /brand-assets… */
export class BrandAssets extends Resource {
  /** GET /brand-assets. */
  list(): PagedList<BrandAsset, never> {
    return singlePage(() => unwrap(this.core.api.GET('/brand-assets')));
  }

  /** POST /brand-assets: a PNG, JPEG, SVG or font in base64. */
  async upload(body: UploadBrandAsset): Promise<BrandAsset> {
    return unwrap(this.core.api.POST('/brand-assets', { body }));
  }

  /** DELETE /brand-assets/{id}. */
  async delete(id: string): Promise<void> {
    await unwrap(this.core.api.DELETE('/brand-assets/{id}', { params: { path: { id } } }));
  }

  /** The file through the asset's signed `url`. */
  async download(asset: Pick<BrandAsset, 'url'>): Promise<Uint8Array> {
    return this.core.download(asset.url);
  }
}
