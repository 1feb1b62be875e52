import type { DocumentRow } from '../documents/index.js';
import { openQueuedProtect } from '../finishing/index.js';
import { defineJobKind, type JobDefinition, type JobHandler, type JobOutcome } from '../jobs/index.js';
import { type ErrorCode, isAppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { RENDER_JOB, type RenderJobPayload } from './enqueue.js';
import type { Caller } from './ports.js';
import { type ProduceDeps, produceQueued } from './produce.js';
import type { FinalWrite } from './record.js';

export interface RenderJobDeps extends ProduceDeps {
  /** Finds a document by id (the documents capability's repository). */
  findDocument(db: Db, id: string): Promise<DocumentRow | null>;
  /** The team's plan, or null when the team is gone. */
  planOf(teamId: string): Promise<Caller['plan'] | null>;
}

/**
 * The extension point after a queued document's final transition (succeeded, failed, or removed): runs in
 * the same transaction, so whatever it records (e.g. a batch's completion job) commits exactly with it.
 */
export interface RenderHooks {
  afterFinal?(trx: Db, document: { id: string; batchId: string | null }): Promise<void>;
}

/** Spec: Document status — render_timeout and service_busy are retried (3 attempts in all), others fail at once. */
export const MAX_RENDER_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [30_000, 120_000];
const RETRIED_CODES: ReadonlySet<ErrorCode> = new Set(['render_timeout', 'service_busy']);
const NO_SLOT_WAIT_MS = 1_000;

/**
 * The background render of a queued document: a heavy job (it renders). `abandon` fails the document of a
 * job given up without a recorded outcome (its workers died during every attempt, or it kept throwing).
 */
export function renderJobDefinition(deps: RenderJobDeps, hooks: RenderHooks = {}): JobDefinition {
  return defineJobKind({
    kind: RENDER_JOB,
    pool: 'heavy',
    handler: renderJobHandler(deps, hooks),
    maxAttempts: MAX_RENDER_ATTEMPTS,
    retryDelaysMs: RETRY_DELAYS_MS,
    abandon: (trx, job) => failDocument(deps, hooks, trx, job.payload.documentId),
    // A payload written by older code or by hand: the document it names fails rather than staying queued.
    unreadable: async (trx, payload) => {
      const documentId = (payload as { documentId?: unknown } | null)?.documentId;
      if (typeof documentId === 'string') await failDocument(deps, hooks, trx, documentId);
    },
  });
}

/** A queued document given up without an outcome of its own: failed with render_failed, hooks told. */
async function failDocument(
  deps: RenderJobDeps,
  hooks: RenderHooks,
  trx: Db,
  documentId: string,
): Promise<void> {
  const row = await deps.lifecycle.finish(
    trx,
    { id: documentId },
    { status: 'failed', code: 'render_failed', delivery: null },
  );
  if (row) await hooks.afterFinal?.(trx, { id: row.id, batchId: row.batch_id });
}

/**
 * Claims the queued document and produces it through the one use case, which returns its outcome as a
 * value; the outcome's write (document state, usage count, pdf.* event, then the hooks) is the job's
 * `commit`, run by the queue in the transaction that finishes the job — so it happens exactly once.
 */
function renderJobHandler(deps: RenderJobDeps, hooks: RenderHooks): JobHandler<RenderJobPayload> {
  return async ({ payload }, ctx) => {
    const document = await deps.findDocument(ctx.db, payload.documentId);
    if (!document) {
      const error = { code: 'document_not_found', message: 'document record missing' } as const;
      return { kind: 'failed', error, retryable: false };
    }
    const final = { id: document.id, batchId: document.batch_id };
    const withHooks = (write: FinalWrite) => async (trx: Db) => {
      await write(trx);
      await hooks.afterFinal?.(trx, final);
    };
    /** Gives up without rendering, with the reason on the document (no retry could change it). */
    const giveUp = (code: ErrorCode, message: string): JobOutcome => ({
      kind: 'failed',
      error: { code, message },
      retryable: false,
      commit: withHooks(async (trx) => {
        await deps.lifecycle.abandon(trx, document.id, code, message);
        return null;
      }),
    });
    const plan = await deps.planOf(document.team_id);
    // The team is gone. (A render that keeps killing its worker is given up by the worker through the
    // kind's abandon.)
    if (!plan) return giveUp('forbidden', 'The team no longer exists.');
    let request: RenderJobPayload['request'];
    try {
      request = openQueuedProtect(deps.passwords, payload.request, payload.protect);
    } catch (err) {
      // The sealed passwords no longer open (the server secret changed): its message says to send them again.
      if (isAppError(err)) return giveUp(err.code, err.message);
      throw err;
    }
    const outcome = await produceQueued(deps, {
      caller: { teamId: document.team_id, plan },
      request,
      test: document.test === 1,
      signal: ctx.signal,
      queued: {
        id: document.id,
        createdAt: new Date(document.created_at),
        // Whether another attempt follows is the worker's to say (attemptsLeft); when, too (the backoff).
        retriable: (code) => RETRIED_CODES.has(code) && ctx.attemptsLeft > 0 && !ctx.signal.aborted,
      },
    });
    return jobOutcome(outcome, withHooks);
  };
}

function jobOutcome(
  outcome: Awaited<ReturnType<typeof produceQueued>>,
  withHooks: (write: FinalWrite) => (trx: Db) => Promise<void>,
): JobOutcome {
  switch (outcome.kind) {
    case 'succeeded':
      return { kind: 'succeeded', commit: withHooks(outcome.write) };
    case 'no-slot':
      return { kind: 'defer', delayMs: NO_SLOT_WAIT_MS };
    case 'failed':
      // A recorded failure is final; an unrecorded one is retried after the kind's backoff (should none
      // follow, the worker's abandon fails the document).
      return outcome.write
        ? { kind: 'failed', error: outcome.error, retryable: false, commit: withHooks(outcome.write) }
        : { kind: 'failed', error: outcome.error, retryable: true };
  }
}
