export { registerWebApp } from './plugin.js';
