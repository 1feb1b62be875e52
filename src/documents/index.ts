import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import type { Clock } from '../shared/clock.js';
import type { BlobStore, Db } from '../storage/index.js';
import { DocumentLifecycle, type UsageLedgerPort } from './lifecycle.js';
import { type DocumentJson, isStored, presentDocument } from './present.js';
import {
  type DocumentRow,
  findDocument,
  findDocumentById,
  storedBytes,
  testDocumentsPerDay,
} from './repository.js';
import { sweepDocuments } from './retention.js';
import { registerDocumentRoutes, registerSignedDocumentRoutes } from './routes.js';
import type { LinkSigner } from './signed-links.js';
import { ThumbnailCache, type ThumbnailMaker } from './thumbnails.js';

export type { RenderTimings } from './activity.js';
export type { DocumentLifecycle, UsageLedgerPort } from './lifecycle.js';
export {
  type DocumentOutcome,
  type FinishTarget,
  type NewDocument,
  type ProducedFile,
  usagePeriodOf,
} from './lifecycle.js';
export type { DocumentJson } from './present.js';
export { DocumentSchema } from './present.js';
export type { DocumentRow } from './repository.js';
export { LinkSigner } from './signed-links.js';
export { type DocumentStatus, OPEN_STATUSES } from './states.js';
export type { ThumbnailMaker } from './thumbnails.js';

export interface DocumentsOptions {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  signer: LinkSigner;
  /** Base of signed links; known for sure only after listen when the port is 0. */
  publicUrl(): string;
  makeThumbnail: ThumbnailMaker;
  /** The usage ledger the lifecycle writes counted documents to. */
  usage?: UsageLedgerPort;
}

/** A document's record and stored file, as another capability reads it. */
export interface StoredDocument {
  status: string;
  test: boolean;
  contentType: string;
  /** Bytes of the file as recorded (null while not finished). */
  bytes: number | null;
  /** The stored file, or null once it is gone (retention, or never stored). */
  read(): Promise<Buffer | null>;
}

/** The documents capability: the lifecycle, the log and its signed files, counts over its own rows. */
export interface DocumentsModule extends Capability<App, JobDefinition> {
  lifecycle: DocumentLifecycle;
  /** The spec's Document object with fresh signed links. */
  present(row: DocumentRow): DocumentJson;
  findById(db: Db, id: string): Promise<DocumentRow | null>;
  /** The team's document (any mode), or null. */
  findForTeam(teamId: string, id: string): Promise<DocumentRow | null>;
  /** The stored file's bytes while it is stored, else null (expired, never stored, or gone). */
  readStoredFile(row: DocumentRow): Promise<Buffer | null>;
  /** The team's documents as finishing merges them (`prepend`/`append` `{ document_id }`). */
  storedPdfs: { find(teamId: string, id: string): Promise<StoredDocument | null> };
  /** A document as the email send job attaches it: its file, and `delivery`, where the email's state is. */
  attachments: {
    file(documentId: string): Promise<{ content: Buffer; filename: string; contentType: string } | null>;
    setDelivery(trx: Db, documentId: string, state: object): Promise<void>;
  };
  /** Storage counts for plan checks (usage is counted by the usage ledger, which retention never sweeps). */
  ledger: {
    storedBytes(teamId: string, test: boolean): Promise<number>;
    /** Succeeded test documents per UTC day (`YYYY-MM-DD` → count), both days inclusive. */
    testDocumentsPerDay(teamId: string, fromDay: string, toDay: string): Promise<Map<string, number>>;
  };
  routes(app: App): void;
  signedRoutes(app: App): void;
}

export function createDocuments(options: DocumentsOptions): DocumentsModule {
  const { db, clock, blobs, signer } = options;
  const present = (row: DocumentRow) =>
    presentDocument(row, { signer, publicUrl: options.publicUrl(), nowMs: clock.now().getTime() });
  const lifecycle = new DocumentLifecycle({
    db,
    clock,
    // Webhook payloads stay as the spec defines them: the `signed` extension is for GET /pdf only.
    present: (row) => {
      const { signed: _signed, ...document } = present(row);
      return document;
    },
    ...(options.usage ? { usage: options.usage } : {}),
  });
  const readStoredFile = async (row: DocumentRow) =>
    row.blob_key && isStored(row, clock.now().getTime()) ? blobs.get(row.blob_key) : null;
  const routeDeps = {
    services: { db, blobs, clock, publicUrl: options.publicUrl },
    signer,
    thumbnails: new ThumbnailCache({ db, blobs, clock, make: options.makeThumbnail }),
  };
  return {
    lifecycle,
    present,
    findById: findDocumentById,
    findForTeam: (teamId, id) => findDocument(db, teamId, id, false),
    readStoredFile,
    storedPdfs: {
      find: async (teamId, id) => {
        const row = await findDocument(db, teamId, id, false);
        return row && storedDocument(row, readStoredFile);
      },
    },
    attachments: {
      file: async (documentId) => {
        const row = await findDocumentById(db, documentId);
        const content = row ? await readStoredFile(row) : null;
        return row && content ? { content, filename: row.filename, contentType: row.content_type } : null;
      },
      setDelivery: (trx, documentId, state) => lifecycle.setDelivery(trx, documentId, state),
    },
    ledger: {
      storedBytes: (teamId, test) => storedBytes(db, teamId, test),
      testDocumentsPerDay: (teamId, fromDay, toDay) => testDocumentsPerDay(db, teamId, fromDay, toDay),
    },
    sweeps: [{ name: 'documents', run: (now) => sweepDocuments({ db, blobs, lifecycle }, now) }],
    routes: (app) => registerDocumentRoutes(app, routeDeps),
    signedRoutes: (app) => registerSignedDocumentRoutes(app, routeDeps),
  };
}

function storedDocument(
  row: DocumentRow,
  read: (row: DocumentRow) => Promise<Buffer | null>,
): StoredDocument {
  return {
    status: row.status,
    test: row.test === 1,
    contentType: row.content_type,
    bytes: row.bytes,
    read: () => read(row),
  };
}
