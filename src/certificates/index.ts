import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { CertificatePort } from '../production/index.js';
import type { Capability } from '../shared/capability.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { registerCertificateRoutes } from './routes.js';
import { type CertificateReader, type KeyBox, openSigningKey } from './service.js';

// readPkcs12 runs on the untrusted-file pool's threads (untrusted/worker.ts imports pkcs12.ts itself): not
// re-exported here, so the server's main thread does not load node-forge at start (issue 54).
export type { ReadPkcs12 } from './pkcs12.js';
export type { CertificateReader, KeyBox } from './service.js';

export interface CertificatesOptions {
  db: Db;
  clock: Clock;
  /** Seals private keys with a key derived from the server secret (a SecretBox of its own purpose). */
  box: KeyBox;
  reader: CertificateReader;
  /** QUIRE_TSA_URL: signatures get an RFC 3161 timestamp from it (PAdES B-T); empty: none. */
  timestampUrl?: string;
}

/** Team certificates: upload, list, delete, and the key of one for `sign`. */
export interface CertificatesModule extends Capability<App, JobDefinition> {
  /** What production asks for when a document is signed. */
  port: CertificatePort;
}

export function createCertificates(options: CertificatesOptions): CertificatesModule {
  return {
    port: { signingKey: (teamId, id, at) => openSigningKey(options, teamId, id, at) },
    routes: (app) => registerCertificateRoutes(app, options),
  };
}
