import type { JobDefinition } from '../jobs/index.js';
import type { Db } from '../storage/index.js';
import {
  type BulkItem,
  type CheckedRequest,
  cancelQueued,
  checkRequest,
  enqueueDocument,
  enqueueDocuments,
} from './enqueue.js';
import { type MadeFileInput, produceMadeFile } from './made-file.js';
import type { Caller, DocumentRequest } from './ports.js';
import { type ProduceInput, produceDocument, type RecordedProduced } from './produce.js';
import type { DirectPurpose } from './purpose.js';
import type { Produced } from './record.js';
import { type RenderHooks, type RenderJobDeps, renderJobDefinition } from './render-job.js';

/**
 * What the routes (POST /pdf, batches, template previews) and the job queue use of production: six
 * operations over one set of dependencies, built once (createProduction). Its callers never see the
 * dependencies themselves.
 */
export interface Production {
  /** A document now (POST /pdf without async; recorded before it returns), a preview or a thumbnail. */
  produce(input: ProduceInput & { purpose: DirectPurpose }): Promise<RecordedProduced>;
  produce(input: ProduceInput): Promise<Produced>;
  /** POST /pdf with `async: true`: checked, admitted and queued with its render job (spec: 202). */
  enqueue(
    caller: Caller,
    request: DocumentRequest,
    test: boolean,
    /** Runs in the transaction that queues the document (e.g. its idempotency key). */
    onQueued?: (trx: Db, documentId: string) => Promise<void>,
  ): Promise<{ id: string; status: 'queued'; created_at: string }>;
  /** A batch's documents: admitted once for all, queued in one transaction (ids in item order). */
  enqueueMany(
    caller: Caller,
    input: { test: boolean; batchId: string; items: readonly BulkItem[] },
    onQueued: (trx: Db, documentIds: string[]) => Promise<void>,
  ): Promise<string[]>;
  /** Withdraws bulk documents still waiting, in the caller's transaction; returns how many. */
  cancelQueued(trx: Db, documentIds: readonly string[]): Promise<number>;
  /** The up-front checks of a request that will be queued, without rendering (a batch: once for all). */
  checkRequest(caller: Caller, request: DocumentRequest, test: boolean): Promise<CheckedRequest>;
  /** The background render job kind; `hooks` run after each queued document's final transition. */
  renderJob(hooks?: RenderHooks): JobDefinition;
  /** A document whose file the caller makes (a transformed PDF), admitted and recorded as a direct one. */
  produceMadeFile(input: MadeFileInput): Promise<RecordedProduced>;
}

export type ProductionDeps = RenderJobDeps;

export function createProduction(deps: ProductionDeps): Production {
  return {
    produce: ((input: ProduceInput) => produceDocument(deps, input)) as Production['produce'],
    enqueue: (caller, request, test, onQueued) => enqueueDocument(deps, caller, request, test, onQueued),
    enqueueMany: (caller, input, onQueued) => enqueueDocuments(deps, caller, input, onQueued),
    cancelQueued: (trx, ids) => cancelQueued(deps, trx, ids),
    checkRequest: (caller, request, test) => checkRequest(deps, caller, request, test),
    renderJob: (hooks) => renderJobDefinition(deps, hooks),
    produceMadeFile: (input) => produceMadeFile(deps, input),
  };
}
