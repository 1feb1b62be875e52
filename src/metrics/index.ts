export { instrumentRenderer } from './instrument.js';
export { QuireMetrics } from './registry.js';
export { holdsMetricsToken, metricsAccess, registerMetricsRoutes } from './routes.js';
