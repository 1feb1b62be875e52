import type { Plan } from '../accounts/plans.js';
import type { ThumbnailMaker } from '../documents/thumbnails.js';
import type { App } from '../http/server.js';
import type { ProduceDeps, TemplatePort } from '../production/index.js';
import type { TemplateRouteDeps, TemplateServices } from './deps.js';
import type { TemplateEngine } from './engine-port.js';
import { registerTemplateCrudRoutes } from './routes.js';
import { registerTemplateDraftRoute } from './routes-draft.js';
import { registerStarterRoutes } from './routes-starters.js';
import { registerTemplateVersionRoutes } from './routes-versions.js';
import { StarterThumbnails } from './starters.js';
import { createTemplatePort } from './template-port.js';
import { registerTemplateThumbnailRoute } from './thumbnail-route.js';
import { TemplateThumbnails } from './thumbnails.js';

export { sweepTemplates } from './retention.js';
export type { TemplateEngine };

export interface TemplatesModule {
  /**
   * The nine /templates routes plus the draft-preview and template-gallery extensions; register inside the
   * authenticated /v1 scope.
   */
  registerRoutes(app: App): void;
  /** GET /thumbnails/templates/<id>.png; register in the public /v1 scope (signed link, no key). */
  registerSignedRoutes(app: App): void;
}

export interface TemplatesOptions {
  services: TemplateServices;
  engine: TemplateEngine;
  production: ProduceDeps;
  planOf(teamId: string): Promise<Plan | null>;
  make: ThumbnailMaker;
}

/** The template port production resolves `template_id` through (built before production itself). */
export function templatePortOf(services: Pick<TemplateServices, 'db'>, engine: TemplateEngine): TemplatePort {
  return createTemplatePort({ db: services.db, engine });
}

/** The templates capability: routes, previews and thumbnails over the production use case. */
export function createTemplates(options: TemplatesOptions): TemplatesModule {
  const { services, engine, production } = options;
  const thumbnails = new TemplateThumbnails({
    db: services.db,
    blobs: services.blobs,
    production,
    planOf: options.planOf,
    make: options.make,
  });
  const deps: TemplateRouteDeps = { services, engine, production, signer: services.signer, thumbnails };
  const starterThumbnails = new StarterThumbnails({ production, make: options.make });
  return {
    registerRoutes(app) {
      registerTemplateCrudRoutes(app, deps);
      registerTemplateVersionRoutes(app, deps);
      registerTemplateDraftRoute(app, deps);
      registerStarterRoutes(app, { thumbnails: starterThumbnails });
    },
    registerSignedRoutes(app) {
      registerTemplateThumbnailRoute(app, deps);
    },
  };
}
