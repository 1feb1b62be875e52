import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../shared/errors.js';
import type { SlotKind, SlotLease, TeamSlots } from '../shared/team-slots.js';
import type { Caller } from './ports.js';

/** Background work found every team slot taken: the job waits, nothing is recorded. */
export class NoRenderSlot extends Error {
  constructor() {
    super('no free render slot for this team');
  }
}

/** How often work that waits for a team slot asks again (slots are held for a render: about a second). */
const SLOT_POLL_MS = 200;

/** What taking a team render slot needs to know of a piece of work (produce.ts's Work). */
export interface SlotRequest {
  caller: Caller;
  slot: SlotKind;
  /** Waits up to `ms` for a free slot, until `stop` aborts (shutdown); absent: no wait. */
  slotWait?: { ms: number; stop: AbortSignal } | undefined;
  signal?: AbortSignal | undefined;
  /** Queued work that finds no slot waits as a job (NoRenderSlot) instead of answering rate_limited. */
  queued?: unknown;
}

/**
 * A lease on one of the team's render slots (spec: PDFs rendering at once per team), or `rate_limited`
 * with `details.reason` = `concurrency` and Retry-After: 1 (queued work: NoRenderSlot).
 */
export async function acquireSlot(slots: TeamSlots, work: SlotRequest): Promise<SlotLease> {
  const limit = work.caller.plan.render_concurrency;
  const giveUpAt = Date.now() + (work.slotWait?.ms ?? 0);
  const stop = work.slotWait?.stop;
  for (;;) {
    const lease = await slots.tryAcquire(work.caller.teamId, limit, work.slot);
    if (lease) return lease;
    if (Date.now() >= giveUpAt || work.signal?.aborted || stop?.aborted) break;
    await sleep(SLOT_POLL_MS, undefined, stop ? { signal: stop } : {}).catch(() => {});
  }
  if (work.queued) throw new NoRenderSlot();
  throw new AppError(
    'rate_limited',
    `This team already renders ${limit} PDF(s) at once.`,
    { reason: 'concurrency', limit },
    { 'retry-after': '1' },
  );
}
