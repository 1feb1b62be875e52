export { instrumentRenderer } from './instrument.js';
export { QuireMetrics } from './registry.js';
export { metricsAccess, registerMetricsRoutes } from './routes.js';
