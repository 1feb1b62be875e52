import type { LinkSigner } from '../documents/signed-links.js';
import type { App } from '../http/server.js';
import type { BrandPort } from '../production/ports.js';
import type { Clock } from '../shared/clock.js';
import type { RateCounter } from '../shared/rate-counter.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { Db } from '../storage/db.js';
import type { UploadReader } from './files.js';
import { createBrandPort } from './kit.js';
import { registerBrandRoutes, registerSignedBrandRoutes } from './routes.js';

export interface BrandOptions {
  db: Db;
  blobs: BlobStore;
  clock: Clock;
  rate: RateCounter;
  signer: LinkSigner;
  publicUrl(): string;
  untrusted: UploadReader;
}

/** Brand assets (issue 18): a team's logo and fonts, their signed links, and the Liquid `brand` variable. */
export interface BrandModule {
  /** What production asks for each render. */
  port: BrandPort;
  registerRoutes(app: App): void;
  registerSignedRoutes(app: App): void;
}

export function createBrand(options: BrandOptions): BrandModule {
  const { db, blobs, clock, rate, signer, publicUrl, untrusted } = options;
  const links = { signer, publicUrl };
  const routeDeps = { service: { db, blobs, clock, rate, untrusted }, blobs, links };
  return {
    port: createBrandPort({ db, blobs, links }),
    registerRoutes: (app) => registerBrandRoutes(app, routeDeps),
    registerSignedRoutes: (app) => registerSignedBrandRoutes(app, routeDeps),
  };
}
