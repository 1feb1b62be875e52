export { holdsMetricsToken } from './routes.js';
export { createMetrics } from './setup.js';
