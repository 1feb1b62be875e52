export { printMode } from './print-mode.js';
