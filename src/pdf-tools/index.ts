import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import { type PdfToolsDeps, registerPdfToolRoutes } from './routes.js';

export { type LocalPdf, localPdfTools } from './local.js';
export type { PdfToolsDeps } from './routes.js';
export { toolBudget } from './tools.js';

/**
 * The PDF tools (extension, docs/pdf-tools.md): POST /pdf/inspect, /pdf/transform and /pdf/split over PDFs
 * a team already has — sent, or stored as documents. Every tool that reads the caller's file (qpdf,
 * poppler) runs in a process of its own under a time and memory limit.
 */
export function createPdfTools(deps: PdfToolsDeps): Capability<App, JobDefinition> {
  return { routes: (app) => registerPdfToolRoutes(app, deps) };
}
