import type { LinkSigner } from '../documents/index.js';
import type { PasswordBox } from '../finishing/index.js';
import type { Production } from '../production/index.js';
import type { Clock } from '../shared/clock.js';
import type { RateCounter } from '../shared/rate-counter.js';
import type { BlobStore, Db } from '../storage/index.js';
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
  /** Seals a template's `protect` passwords (finishing/sealed-protect.ts). */
  passwords: PasswordBox;
}

/** Everything the template routes use, built once by createTemplates(). */
export interface TemplateRouteDeps {
  services: TemplateServices;
  engine: TemplateEngine;
  /** The one production use case (previews). */
  production: Pick<Production, 'produce'>;
  signer: LinkSigner;
  thumbnails: TemplateThumbnails;
}

export function storeDeps(deps: TemplateRouteDeps): TemplateStoreDeps {
  const { db, clock, blobs, passwords } = deps.services;
  return { db, clock, blobs, engine: deps.engine, passwords };
}

export function linksOf(deps: TemplateRouteDeps): LinkContext {
  return {
    signer: deps.signer,
    publicUrl: deps.services.publicUrl(),
    nowMs: deps.services.clock.now().getTime(),
  };
}
