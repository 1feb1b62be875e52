import type { AppServices } from '../app.js';
import type { ThumbnailMaker } from '../documents/thumbnails.js';
import type { App } from '../http/server.js';
import type { TemplatePort } from '../pdf/ports.js';
import { makeThumbnail } from '../render/index.js';
import type { TemplateRouteDeps } from './deps.js';
import { registerTemplateCrudRoutes } from './routes.js';
import { registerTemplateVersionRoutes } from './routes-versions.js';
import { createTemplatePort } from './template-port.js';
import { registerTemplateThumbnailRoute } from './thumbnail-route.js';
import { TemplateThumbnails } from './thumbnails.js';

export type { TemplateEngine } from './engine-port.js';
export { mergeData } from './merge-data.js';
export { sweepTemplates } from './retention.js';
export { createTemplatePort } from './template-port.js';

export interface TemplatesModule {
  /** For the POST /pdf pipeline (`PipelineDeps.templates`) and batches. */
  port: TemplatePort;
  /** The nine /templates routes; register inside the authenticated /v1 scope. */
  registerRoutes(app: App): void;
  /** GET /thumbnails/templates/<id>.png; register in the public /v1 scope (signed link, no key). */
  registerSignedRoutes(app: App): void;
}

type TemplateServices = Pick<
  AppServices,
  'db' | 'blobs' | 'clock' | 'rate' | 'slots' | 'publicUrl' | 'renderer' | 'liquid' | 'signer'
>;

/** The templates capability, built once in the composition root from the shared services. */
export function createTemplates(
  services: TemplateServices,
  make: ThumbnailMaker = makeThumbnail,
): TemplatesModule {
  const { db, blobs, liquid: engine, renderer, signer } = services;
  const port = createTemplatePort({ db, engine });
  const thumbnails = new TemplateThumbnails({ db, blobs, engine, renderer, make });
  const deps: TemplateRouteDeps = { services, engine, renderer, signer, port, thumbnails };
  return {
    port,
    registerRoutes(app) {
      registerTemplateCrudRoutes(app, deps);
      registerTemplateVersionRoutes(app, deps);
    },
    registerSignedRoutes(app) {
      registerTemplateThumbnailRoute(app, deps);
    },
  };
}
