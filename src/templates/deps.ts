import type { LinkSigner } from '../documents/signed-links.js';
import type { ProduceDeps } from '../production/index.js';
import type { Clock } from '../shared/clock.js';
import type { RateCounter } from '../shared/rate-counter.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { Db } from '../storage/db.js';
import type { TemplateEngine } from './engine-port.js';
import type { LinkContext } from './present.js';
import type { TemplateStoreDeps } from './service.js';
import type { TemplateThumbnails } from './thumbnails.js';

/** What the templates capability needs from the rest of the service (its ports). */
export interface TemplateServices {
  db: Db;
  blobs: BlobStore;
  clock: Clock;
  rate: RateCounter;
  publicUrl(): string;
  signer: LinkSigner;
}

/** Everything the template routes use, built once by createTemplates(). */
export interface TemplateRouteDeps {
  services: TemplateServices;
  engine: TemplateEngine;
  /** The one production use case (previews). */
  production: ProduceDeps;
  signer: LinkSigner;
  thumbnails: TemplateThumbnails;
}

export function storeDeps(deps: TemplateRouteDeps): TemplateStoreDeps {
  const { db, clock, blobs } = deps.services;
  return { db, clock, blobs, engine: deps.engine };
}

export function linksOf(deps: TemplateRouteDeps): LinkContext {
  return {
    signer: deps.signer,
    publicUrl: deps.services.publicUrl(),
    nowMs: deps.services.clock.now().getTime(),
  };
}
