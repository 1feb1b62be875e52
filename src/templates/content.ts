import { AppError } from '../shared/errors.js';
import type { TemplateEngine } from './engine-port.js';
import { checkSettings, type TemplateSettings } from './settings.js';

/** Spec "Limits": template HTML and CSS 500 KB each, sample_data 1 MB as JSON. */
export const MAX_TEMPLATE_HTML_BYTES = 500 * 1024;
export const MAX_TEMPLATE_CSS_BYTES = 500 * 1024;
export const MAX_SAMPLE_DATA_BYTES = 1024 * 1024;

/** The content fields of a create or update body, each checked only when sent. */
export interface SentContent {
  html?: string;
  css?: string | null;
  sample_data?: Record<string, unknown>;
  settings?: TemplateSettings;
}

/**
 * Size limits, page settings, then the Liquid parse ("parsed on save"): a syntax error or unknown filter is
 * template_render_error with details.line and details.column (thrown by the engine).
 */
export async function checkContent(engine: TemplateEngine, sent: SentContent): Promise<void> {
  if (sent.html !== undefined && Buffer.byteLength(sent.html) > MAX_TEMPLATE_HTML_BYTES) {
    // Spec "Errors": template HTML over 500 KB is a template_render_error.
    throw new AppError('template_render_error', 'The template HTML is larger than 500 KB.');
  }
  if (typeof sent.css === 'string' && Buffer.byteLength(sent.css) > MAX_TEMPLATE_CSS_BYTES) {
    throw new AppError('invalid_request', 'css is larger than 500 KB.', { field: 'css' });
  }
  if (
    sent.sample_data !== undefined &&
    Buffer.byteLength(JSON.stringify(sent.sample_data)) > MAX_SAMPLE_DATA_BYTES
  ) {
    throw new AppError('invalid_request', 'sample_data is larger than 1 MB as JSON.', {
      field: 'sample_data',
    });
  }
  if (sent.settings !== undefined) checkSettings(sent.settings);
  if (sent.html !== undefined) await engine.check(sent.html);
}
