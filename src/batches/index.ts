/**
 * Batches (spec: Batches, Batch status, batch.completed): one template rendered once per item or spreadsheet
 * row through production's one background render, a ZIP of the results, and one event when done.
 */
export { registerBatchRoutes, registerSignedBatchRoutes } from './routes.js';
export { BATCH_ZIP_JOB, BatchService } from './service.js';
export { registerSpreadsheetRoutes } from './spreadsheet-routes.js';
