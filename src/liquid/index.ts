/**
 * Liquid capability: templates → HTML under the spec's limits, with missing-variable warnings.
 * Wiring: one `new LiquidEngine()` per process; it satisfies `LiquidPort` (renderSource) and the
 * template capability uses `getOrParse(`${id}@${version}`, html)` + `render`.
 */
export { CompiledTemplate } from './compiled-template.js';
export { LiquidEngine, type LiquidEngineOptions, type LiquidResult } from './engine.js';
export { LIQUID_LIMITS, MAX_MISSING_VARIABLES } from './limits.js';
export { FilterInputError } from './template-error.js';
