export { needsPolyfill, polyfillFeatures } from './features.js';
export { printModeCss } from './page-css.js';
export { printMode, printPdfOptions } from './print-mode.js';
