import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Db } from '../storage/index.js';
import type { JobError } from './job-error.js';
import type { ClaimedJob, EnqueueInput } from './queue.js';
import {
  type AbandonJob,
  backoffTable,
  type JobDefinition,
  type JobHandler,
  type JobKindOptions,
} from './registry.js';

/**
 * A job kind's name and the TypeBox schema of its payload: what the code that queues its jobs (jobInput)
 * and the kind's definition (defineJobKind) share, so neither can disagree with the other about the payload.
 */
export interface JobKind<S extends TSchema = TSchema> {
  readonly name: string;
  readonly payload: S;
}

export function jobKind<S extends TSchema>(name: string, payload: S): JobKind<S> {
  return { name, payload };
}

/** The payload type of a kind's jobs, as its handler receives it. */
export type PayloadOf<K extends JobKind> = Static<K['payload']>;

/** The queue's input for a job of a kind, with the payload of the kind's type. */
type KindInput<S extends TSchema> = Omit<EnqueueInput, 'kind' | 'payload'> & { payload: Static<S> };

/**
 * The queue's input (enqueueJob, enqueueJobs) for a job of `kind`, its payload checked against the kind's
 * schema: a payload its worker would refuse is a bug of the caller, thrown here — in the enqueuing
 * transaction, which it rolls back — instead of being found by a worker later.
 */
export function jobInput<S extends TSchema>(kind: JobKind<S>, input: KindInput<S>): EnqueueInput {
  const checked = checkPayload(kind, input.payload);
  if (!checked.ok) throw new Error(checked.error.message);
  return { ...input, kind: kind.name };
}

/**
 * A job kind as a capability writes it: its kind (name and payload schema), pool and handler, and its retry
 * policy as the attempts in all and the table of waits between them (backoffTable).
 */
interface JobKindSpec<S extends TSchema>
  extends Pick<JobDefinition, 'pool'>,
    Pick<JobKindOptions, 'maxAttempts'> {
  kind: JobKind<S>;
  handler: JobHandler<Static<S>>;
  /** The wait after each failed attempt in turn; the last one again once the table runs out (backoffTable). */
  retryDelaysMs: readonly number[];
  abandon?: AbandonJob<Static<S>>;
  /**
   * What to record when a claimed job's payload does not match its schema, from the raw payload (e.g. the
   * queued document it names fails instead of staying queued for ever); runs in the transaction that fails it.
   */
  unreadable?: (trx: Db, payload: unknown, error: JobError) => Promise<void>;
}

/**
 * The definition app.ts registers for a kind. Each claimed job's payload is checked against the kind's
 * schema before its handler runs: one that does not match (a row written by older code, or by hand) fails
 * the job for good with `invalid_payload` instead of reaching a handler that trusts its type.
 */
export function defineJobKind<S extends TSchema>(spec: JobKindSpec<S>): JobDefinition {
  const { kind, handler, abandon, unreadable } = spec;
  return {
    kind: kind.name,
    pool: spec.pool,
    handler: async (job, ctx) => {
      const checked = checkPayload(kind, job.payload);
      if (!checked.ok) {
        const { error } = checked;
        const commit = unreadable && ((trx: Db) => unreadable(trx, job.payload, error));
        return { kind: 'failed', error, retryable: false, ...(commit ? { commit } : {}) };
      }
      return handler({ ...job, payload: checked.payload }, ctx);
    },
    options: {
      maxAttempts: spec.maxAttempts,
      backoff: backoffTable(spec.retryDelaysMs),
      ...(abandon ? { abandon: typedAbandon(kind, abandon) } : {}),
    },
  };
}

/** The kind's abandon, for jobs whose payload has its type: without one there is nothing of it to record. */
function typedAbandon<S extends TSchema>(kind: JobKind<S>, abandon: AbandonJob<Static<S>>): AbandonJob {
  return async (trx, job: ClaimedJob, error) => {
    const checked = checkPayload(kind, job.payload);
    if (checked.ok) await abandon(trx, { ...job, payload: checked.payload }, error);
  };
}

type Checked<P> = { ok: true; payload: P } | { ok: false; error: JobError };

function checkPayload<S extends TSchema>(kind: JobKind<S>, payload: unknown): Checked<Static<S>> {
  if (Value.Check(kind.payload, payload)) return { ok: true, payload };
  const [first] = Value.Errors(kind.payload, payload);
  const where = first ? ` (${first.instancePath || '/'}: ${first.message})` : '';
  return {
    ok: false,
    error: {
      code: 'invalid_payload',
      message: `the payload of a "${kind.name}" job does not match its schema${where}`,
    },
  };
}
