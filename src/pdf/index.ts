import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import { registerEInvoiceExampleRoute } from './einvoice-example-route.js';
import { type PdfRouteDeps, registerPdfRoutes } from './routes.js';

/** POST /pdf and GET /pdf/{id}: the HTTP face of production (its render job is production's own). */
export function createPdf(deps: PdfRouteDeps): Capability<App, JobDefinition> {
  return {
    routes: (app) => {
      registerPdfRoutes(app, deps);
      registerEInvoiceExampleRoute(app);
    },
  };
}
