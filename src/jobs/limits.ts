import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { type Db, lockKey } from '../storage/index.js';
import { OPEN_STATES } from './states.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The two background-work limits of a team's plan (the plan's `open_jobs` and `test_jobs_per_day`). */
export interface JobLimits {
  open_jobs: number;
  test_jobs_per_day: number;
}

/**
 * Background-work limits, checked when queued (spec: Limits, background work): jobs waiting or rendering at
 * once (`open_jobs`) and test-mode jobs queued in 24 hours (`test_jobs_per_day`). `rate_limited` with
 * `details.limit` and `details.max`, and no Retry-After.
 *
 * Only jobs enqueued with the team's id count (webhook deliveries are the service's own work and carry none).
 * Call inside the transaction that inserted the new jobs, after inserting them: on SQLite the insert took the
 * write lock; on PostgreSQL the team's key lock below makes concurrent enqueues count one after the other,
 * each seeing the jobs the earlier ones committed. Either way no concurrent enqueue slips past the limit.
 */
export async function assertWithinJobLimits(
  trx: Db,
  clock: Clock,
  input: { plan: JobLimits; teamId: string; test: boolean },
): Promise<void> {
  await lockKey(trx, `jobs.limits:${input.teamId}`);
  const open = await countJobs(trx, input.teamId, (q) => q.where('status', 'in', OPEN_STATES));
  if (open > input.plan.open_jobs) {
    throw new AppError(
      'rate_limited',
      `The team already has ${input.plan.open_jobs} background jobs waiting or rendering.`,
      { limit: 'open_jobs', max: input.plan.open_jobs },
    );
  }
  if (!input.test) return;
  const since = new Date(clock.now().getTime() - DAY_MS).toISOString();
  const recent = await countJobs(trx, input.teamId, (q) =>
    q.where('test', '=', 1).where('created_at', '>', since),
  );
  if (recent > input.plan.test_jobs_per_day) {
    throw new AppError(
      'rate_limited',
      `At most ${input.plan.test_jobs_per_day} test-mode background jobs can be queued per 24 hours.`,
      { limit: 'test_jobs_per_day', max: input.plan.test_jobs_per_day },
    );
  }
}

type JobsQuery = ReturnType<typeof baseQuery>;

function baseQuery(db: Db, teamId: string) {
  return db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId);
}

async function countJobs(db: Db, teamId: string, filter: (q: JobsQuery) => JobsQuery): Promise<number> {
  const row = await filter(baseQuery(db, teamId)).executeTakeFirstOrThrow();
  return Number(row.n);
}
