/** Reading files clients upload (XLSX, CSV, SVG, images, fonts) off the main thread, on a budget. */
export { PARSE_LIMITS, UntrustedFiles } from './pool.js';
