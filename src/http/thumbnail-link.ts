import { Type } from 'typebox';
import { fileResponse } from './openapi.js';

/**
 * What the signed thumbnail links of documents and template versions share (spec: Thumbnails): the path
 * names the file as `<id>.png` so that browsers and caches see an image, and the answer is that PNG.
 */

/** The `:file` path parameter: a UUID-shaped id and `.png` (the signature, not this pattern, proves the id). */
export const ThumbnailFileParams = Type.Object({
  file: Type.String({ pattern: '^[0-9a-fA-F-]{36}\\.png$' }),
});

/** The 200 answer of a thumbnail link. */
export const THUMBNAIL_PNG_RESPONSE = fileResponse('First page, 480 px wide', ['image/png']);

/** The id a `:file` parameter names, as it was written (without `.png`). */
export function thumbnailIdOf(file: string): string {
  return file.slice(0, -'.png'.length);
}
