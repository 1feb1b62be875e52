import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { spanEvent, tracingActive } from '../telemetry/index.js';

/**
 * The queue's span events: its depth when a job is queued and when one is claimed. The depth costs one
 * COUNT, so it is read only while the current span records (never with tracing off).
 */
export async function traceEnqueued(db: Db, kind: string, added: number): Promise<void> {
  if (!tracingActive()) return;
  spanEvent('quire.queue.enqueued', {
    'quire.job.kind': kind,
    'quire.queue.depth': await queuedOfKind(db, kind),
    ...(added > 1 ? { 'quire.queue.added': added } : {}),
  });
}

/** On the attempt's span: the depth left behind and how long ago the job was queued. */
export async function traceClaimed(
  db: Db,
  clock: Clock,
  job: { kind: string; createdAt: string; attempts: number },
): Promise<void> {
  if (!tracingActive()) return;
  // The attempt runs even if the count fails: the event is worth less than the job.
  const depth = await queuedOfKind(db, job.kind).catch(() => null);
  spanEvent('quire.queue.claimed', {
    'quire.job.kind': job.kind,
    ...(depth === null ? {} : { 'quire.queue.depth': depth }),
    'quire.job.age_ms': Math.max(0, clock.now().getTime() - Date.parse(job.createdAt)),
    'quire.job.attempt': job.attempts,
  });
}

/** Jobs of this kind waiting (due or not yet): the queue depth the quire_jobs gauge reports as `queued`. */
async function queuedOfKind(db: Db, kind: string): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'queued')
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
