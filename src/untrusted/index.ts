/** Reading files clients upload (XLSX, CSV, SVG, images, fonts) off the main thread, on a budget. */
export { UntrustedFiles } from './pool.js';
