import { type Transition, transitionGuards } from '../shared/transitions.js';

/**
 * A job's states and the moves between them, in one table (as src/documents/states.ts for documents). Every
 * write of the queue (queue.ts) takes its new status and its `WHERE status IN …` guard from here.
 *
 *   (new) ─enqueue─► queued ─claim─► running ─succeed─► succeeded
 *                     ▲  │              │     ─fail────► failed
 *                     │  │              │     ─drop────► canceled    its work was withdrawn meanwhile
 *                     │  └─cancel─► canceled                         withdrawn before it started
 *                     └────requeue──────┘     a retry, a deferral, or a release at shutdown
 *   running ─reclaim─► running     its lease ran out (its worker died): another worker takes it
 *   running ─heartbeat─► running   the lease holder extends its lease
 *
 * Every move out of `running` but reclaim is guarded by the lease owner as well (queue.ts): only the
 * worker holding the lease makes it.
 */
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATES)[number];

/** Waiting or being worked on: counted by the open_jobs limit, never swept. */
export const OPEN_STATES = ['queued', 'running'] as const satisfies readonly JobStatus[];
/** Done for good: nothing moves a job out of these, and the retention sweep deletes them after a while. */
export const FINISHED_STATES = ['succeeded', 'failed', 'canceled'] as const satisfies readonly JobStatus[];

export const TRANSITIONS = {
  enqueue: { from: [null], to: 'queued', by: 'enqueueJob / enqueueJobs, in the transaction of the work' },
  claim: { from: ['queued'], to: 'running', by: 'a worker, once the job is due (run_at)' },
  reclaim: {
    from: ['running'],
    to: 'running',
    by: 'a worker, once the lease of the one running it has run out (that worker died)',
  },
  heartbeat: { from: ['running'], to: 'running', by: 'the lease holder, extending its lease' },
  requeue: {
    from: ['running'],
    to: 'queued',
    by: 'the lease holder: a retry after the backoff, a deferral, or a release at shutdown',
  },
  succeed: { from: ['running'], to: 'succeeded', by: 'the lease holder' },
  fail: {
    from: ['running'],
    to: 'failed',
    by: 'the lease holder, when no attempt is left or none could help (worker.ts decides)',
  },
  drop: { from: ['running'], to: 'canceled', by: 'the lease holder, when its work was withdrawn meanwhile' },
  cancel: {
    from: ['queued'],
    to: 'canceled',
    by: 'cancelJob / cancelJobsByKeys (a batch cancel, a disable)',
  },
} as const satisfies Record<string, Transition<JobStatus>>;

export type JobTransition = keyof typeof TRANSITIONS;

export const { movableFrom, mayMove } = transitionGuards<JobStatus, JobTransition>(TRANSITIONS);
