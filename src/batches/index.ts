/**
 * Batches (spec: Batches, Batch status, batch.completed): one template rendered once per item or spreadsheet
 * row through production's one background render, a ZIP of the results, and one event when done.
 */
import type { App } from '../http/server.js';
import type { IdempotencyStore } from '../idempotency/index.js';
import type { JobDefinition } from '../jobs/index.js';
import type { TemplatePort } from '../production/index.js';
import type { Capability } from '../shared/capability.js';
import { registerBatchRoutes, registerSignedBatchRoutes } from './routes.js';
import { type BatchDeps, BatchService } from './service.js';
import type { SpreadsheetReader } from './spreadsheet.js';
import { registerSpreadsheetRoutes } from './spreadsheet-routes.js';

export type { Sheet } from './spreadsheet.js';

export interface BatchesOptions extends BatchDeps {
  idempotency: IdempotencyStore;
  /** Look for due background jobs now (after an enqueue or a cancel). */
  wakeJobs(): void;
  /** Where a `spreadsheet` is read (off the main thread, on a budget). */
  untrusted: SpreadsheetReader;
  /** Resolves a spreadsheet's template for its column check. */
  templates: TemplatePort;
}

export interface BatchesModule extends Capability<App, JobDefinition> {
  /** Production's render-job hook: a batch item's final state may complete its batch. */
  afterItemFinal: BatchService['afterItemFinal'];
}

export function createBatches(options: BatchesOptions): BatchesModule {
  const { idempotency, wakeJobs, untrusted, templates, ...deps } = options;
  const service = new BatchService(deps);
  return {
    afterItemFinal: service.afterItemFinal,
    signedRoutes: (app) =>
      registerSignedBatchRoutes(app, { service, signer: deps.signer, clock: deps.clock }),
    routes(app) {
      registerBatchRoutes(app, { service, idempotency, wakeJobs, untrusted });
      registerSpreadsheetRoutes(app, { templates, untrusted });
    },
    jobs: [service.zipJob()],
    sweeps: [{ name: 'batch-zips', run: (now) => service.sweepZips(now) }],
  };
}
