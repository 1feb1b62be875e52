/** A team's logo (at most one) or one of its named fonts; the bytes live in the blob store. */
export interface BrandAssetsTable {
  id: string;
  team_id: string;
  kind: 'logo' | 'font';
  /** The logo's label, or the font's name as templates address it (`brand.fonts.<name>`). */
  name: string;
  /** What the signed link serves: image/png, image/jpeg, font/woff2, font/ttf or font/otf. */
  content_type: string;
  /** Extension of the signed link's file name: png, jpg, woff2, ttf, otf. */
  ext: string;
  bytes: number;
  /** The font's own family name read from the file; null for a logo. */
  family: string | null;
  blob_key: string;
  created_at: string;
}

export interface BrandTables {
  brand_assets: BrandAssetsTable;
}
