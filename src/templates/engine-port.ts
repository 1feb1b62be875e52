import type { LiquidEngine } from '../liquid/index.js';

/**
 * What templates use of the Liquid engine (a worker pool; every call is async): `check` parses on save
 * (throws template_render_error with details.line and details.column), `renderStored` renders a stored
 * version, parsed once per worker and kept in that worker's byte-bounded cache under the version's key;
 * `renderSource` renders unsaved editor content (draft previews), cached by a digest of the content.
 */
export type TemplateEngine = Pick<LiquidEngine, 'check' | 'renderStored' | 'renderSource'>;
