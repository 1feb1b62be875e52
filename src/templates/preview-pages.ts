import { PageImageError, type PageImages, renderPageImages } from '../render/index.js';
import { AppError } from '../shared/errors.js';
import type { Preview } from './preview.js';

/** The editor shows the first pages only: enough to judge a layout, bounded work per keystroke pause. */
export const MAX_PREVIEW_PAGE_IMAGES = 10;
export const DEFAULT_PREVIEW_IMAGE_WIDTH = 1000;
/** All page PNGs of one answer together (a 1000 px text page is ~50–300 KB); more are left out. */
const MAX_PREVIEW_IMAGE_BYTES = 12 * 1024 * 1024;
/** pdftoppm needs ~100 ms per page; a preview's pages past this are a fault, not a wait. */
const PREVIEW_IMAGE_TIMEOUT_MS = 15_000;
/**
 * Rasterising is CPU work outside the render slots: at most this many pdftoppm children for previews at
 * once in this process, so a burst of editors cannot starve the renderer; more answer service_busy.
 */
const MAX_CONCURRENT_RASTERS = 4;

export interface PreviewPages {
  page_count: number;
  pages: { page: number; width: number; height: number; png_base64: string }[];
  truncated: boolean;
}

export type Rasteriser = (pdf: Buffer, width: number) => Promise<PageImages>;

/** pdftoppm over the first pages with the preview caps. */
export const rasterisePreview: Rasteriser = (pdf, width) =>
  renderPageImages(pdf, {
    first: 1,
    last: MAX_PREVIEW_PAGE_IMAGES,
    width,
    timeoutMs: PREVIEW_IMAGE_TIMEOUT_MS,
    maxBytes: MAX_PREVIEW_IMAGE_BYTES,
  });

let rastering = 0;

/**
 * The preview PDF's first pages as PNG images (POST /templates/<id>/draft-preview/pages): what the dashboard
 * editor shows instead of the browser's PDF viewer. The PDF is Quire's own output, still rasterised in a
 * child process with a deadline and a byte cap.
 */
export async function previewPages(
  preview: Preview,
  width: number,
  rasterise: Rasteriser = rasterisePreview,
): Promise<PreviewPages> {
  if (rastering >= MAX_CONCURRENT_RASTERS) {
    throw new AppError(
      'service_busy',
      'Too many preview images are being made right now; retry in a moment.',
    );
  }
  rastering++;
  try {
    const images = await rasterise(preview.pdf, width).catch(asAppError);
    const pages = images.pages.map(({ page, width, height, png }) => ({
      page,
      width,
      height,
      png_base64: png.toString('base64'),
    }));
    return { page_count: preview.pages, pages, truncated: pages.length < preview.pages };
  } finally {
    rastering--;
  }
}

/** Failures of pdftoppm in the spec's terms; anything else (pdftoppm missing) stays a server fault. */
function asAppError(err: unknown): never {
  if (!(err instanceof PageImageError)) throw err;
  switch (err.kind) {
    case 'timeout':
      throw new AppError(
        'render_timeout',
        'Making the preview page images took too long; simplify the pages.',
      );
    case 'too_large':
      throw new AppError(
        'payload_too_large',
        'The first preview page is too large as an image; use a smaller image_width or the draft-preview PDF.',
      );
    case 'failed':
      throw new AppError('render_failed', 'The preview PDF could not be turned into page images.');
  }
}
