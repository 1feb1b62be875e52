import type { LinkSigner } from '../documents/index.js';
import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { BrandPort } from '../production/index.js';
import type { Capability } from '../shared/capability.js';
import type { Clock } from '../shared/clock.js';
import type { RateCounter } from '../shared/rate-counter.js';
import type { BlobStore, Db } from '../storage/index.js';
import type { UploadReader } from './files.js';
import { createBrandPort } from './kit.js';
import { registerBrandRoutes, registerSignedBrandRoutes } from './routes.js';

export type { StoredFile } from './files.js';

export interface BrandOptions {
  db: Db;
  blobs: BlobStore;
  clock: Clock;
  rate: RateCounter;
  signer: LinkSigner;
  publicUrl(): string;
  untrusted: UploadReader;
}

/** Brand assets: a team's logo and fonts, their signed links, and the Liquid `brand` variable. */
export interface BrandModule extends Capability<App, JobDefinition> {
  /** What production asks for each render. */
  port: BrandPort;
}

export function createBrand(options: BrandOptions): BrandModule {
  const { db, blobs, clock, rate, signer, publicUrl, untrusted } = options;
  const links = { signer, publicUrl };
  const routeDeps = { service: { db, blobs, clock, rate, untrusted }, blobs, links };
  return {
    port: createBrandPort({ db, blobs, links }),
    routes: (app) => registerBrandRoutes(app, routeDeps),
    signedRoutes: (app) => registerSignedBrandRoutes(app, routeDeps),
  };
}
