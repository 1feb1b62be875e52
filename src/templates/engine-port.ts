import type { LiquidEngine } from '../liquid/index.js';

/**
 * What templates use of the Liquid engine: parse (throws template_render_error with details.line and
 * details.column), the bounded LRU of parsed versions, and render.
 */
export type TemplateEngine = Pick<LiquidEngine, 'parse' | 'getOrParse' | 'render'>;
