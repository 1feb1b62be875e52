export { launchChromiumServer } from './browser-supervisor.js';
export type { EarlyRenderer } from './early-start.js';
export { lengthToInches } from './lengths.js';
export type { RenderLogger } from './logger.js';
export type { PageDefaults } from './page-options.js';
export {
  type PageOptionsInput,
  resolvePageOptions,
} from './page-options.js';
export { htmlLanguage } from './pdf-metadata.js';
export { MAX_PAGES, MAX_PDF_BYTES } from './print-to-pdf.js';
export { RenderService } from './render-service.js';
export {
  MAX_HTML_BYTES,
  RENDERER_SETTINGS,
  Renderer,
} from './renderer.js';
export { checkSourceUrlShape } from './source-url.js';
export {
  makeThumbnail,
  PageImageError,
  type PageImages,
  renderPageImages,
} from './thumbnail.js';
export type * from './types.js';
export { WATERMARK_TEXT } from './watermark-text.js';
