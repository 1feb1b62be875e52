/**
 * Liquid capability: templates → HTML under the spec's limits, with missing-variable warnings.
 * Wiring: one `new LiquidEngine()` per process (a pool of worker threads, closed with `close()`);
 * raw html uses `renderSource`, stored versions `renderStored(key, source, data)`, saves `check`.
 * `LiquidRenderer` is the same language in the calling thread (workers, benchmarks, unit tests).
 */
export { LiquidEngine } from './engine.js';
export {
  DATE_PATTERN_LIMITS,
  TEMPLATE_CACHE,
} from './limits.js';
export { LiquidRenderer } from './renderer.js';
