import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { TemplatePort } from '../production/index.js';
import type { Capability } from '../shared/capability.js';
import type { TemplateRouteDeps, TemplateServices } from './deps.js';
import type { TemplateEngine } from './engine-port.js';
import { sweepTemplates } from './retention.js';
import { registerTemplateCrudRoutes } from './routes.js';
import { registerTemplateDraftRoute } from './routes-draft.js';
import { registerStarterRoutes } from './routes-starters.js';
import { registerTemplateVersionRoutes } from './routes-versions.js';
import { StarterThumbnails } from './starters.js';
import { createTemplatePort } from './template-port.js';
import { registerTemplateThumbnailRoute } from './thumbnail-route.js';
import { type TemplateThumbnailDeps, TemplateThumbnails } from './thumbnails.js';

export { TemplateFieldsSchema, templateFields } from './fields.js';
export { mergeData } from './merge-data.js';

export type { TemplateEngine };

/** What the template thumbnails need is passed on to them as it comes. */
export interface TemplatesOptions extends Pick<TemplateThumbnailDeps, 'production' | 'planOf' | 'make'> {
  services: TemplateServices;
  engine: TemplateEngine;
}

/** The template port production resolves `template_id` through (built before production itself). */
export function templatePortOf(
  services: Pick<TemplateServices, 'db' | 'passwords'>,
  engine: TemplateEngine,
): TemplatePort {
  return createTemplatePort({ db: services.db, engine, passwords: services.passwords });
}

/**
 * The templates capability over the production use case: the nine /templates routes plus the draft-preview
 * and template-gallery extensions (authenticated), GET /thumbnails/templates/<id>.png (signed link, no key),
 * and the retention of deleted templates' files.
 */
export function createTemplates(options: TemplatesOptions): Capability<App, JobDefinition> {
  const { services, engine, production } = options;
  const shutdown = new AbortController();
  const thumbnails = new TemplateThumbnails({
    shutdown: shutdown.signal,
    db: services.db,
    blobs: services.blobs,
    production,
    planOf: options.planOf,
    make: options.make,
  });
  const deps: TemplateRouteDeps = { services, engine, production, signer: services.signer, thumbnails };
  const starterThumbnails = new StarterThumbnails({
    production,
    make: options.make,
    shutdown: shutdown.signal,
  });
  return {
    routes(app) {
      // Before the server waits for requests in flight: thumbnails waiting for a slot stop waiting.
      app.addHook('preClose', async () => shutdown.abort());
      registerTemplateCrudRoutes(app, deps);
      registerTemplateVersionRoutes(app, deps);
      registerTemplateDraftRoute(app, deps);
      registerStarterRoutes(app, { thumbnails: starterThumbnails });
    },
    signedRoutes(app) {
      registerTemplateThumbnailRoute(app, deps);
    },
    sweeps: [{ name: 'templates', run: (now) => sweepTemplates(services.db, services.blobs, now) }],
  };
}
