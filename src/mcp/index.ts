export { registerMcp } from './routes.js';
export { runStdioMcp } from './stdio.js';
