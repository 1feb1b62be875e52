import type { AppServices } from '../app.js';
import type { LinkSigner } from '../documents/signed-links.js';
import type { PdfRenderPort, TemplatePort } from '../pdf/ports.js';
import type { TemplateEngine } from './engine-port.js';
import type { LinkContext } from './present.js';
import type { TemplateStoreDeps } from './service.js';
import type { TemplateThumbnails } from './thumbnails.js';

/** Everything the template routes use, built once by createTemplates(). */
export interface TemplateRouteDeps {
  services: Pick<AppServices, 'db' | 'blobs' | 'clock' | 'rate' | 'slots' | 'publicUrl'>;
  engine: TemplateEngine;
  renderer: PdfRenderPort;
  signer: LinkSigner;
  port: TemplatePort;
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
