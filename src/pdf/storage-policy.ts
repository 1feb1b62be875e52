import type { Plan } from '../accounts/plans.js';
import { TEST_STORAGE_BYTES } from '../accounts/plans.js';
import { storedBytes } from '../documents/repository.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/db.js';

export type StoreDecision = { store: true } | { store: false; reason: 'not_requested' | 'quota_full' };

const DAY_MS = 86_400_000;

/**
 * Whether a rendered PDF is kept (spec: POST /pdf responses): url responses always are (or fail with
 * storage_limit_reached when the quota is full); test binary responses are not; live binary responses are,
 * unless the plan quota is full, in which case the PDF is still returned.
 */
export async function decideStorage(
  db: Db,
  input: { teamId: string; plan: Plan; test: boolean; response: 'binary' | 'url'; pdfBytes: number },
): Promise<StoreDecision> {
  if (input.test && input.response === 'binary') return { store: false, reason: 'not_requested' };
  const used = await storedBytes(db, input.teamId, input.test);
  const cap = input.test ? TEST_STORAGE_BYTES : input.plan.storage_bytes;
  if (used + input.pdfBytes <= cap) return { store: true };
  if (input.response === 'binary') return { store: false, reason: 'quota_full' };
  throw new AppError(
    'storage_limit_reached',
    input.test ? 'Test PDFs stored for this team reached 200 MB.' : 'Stored PDFs reached the plan limit.',
    { scope: input.test ? 'test' : 'plan' },
  );
}

/** Test documents are kept one day; live ones for the plan's retention. */
export function expiryFor(now: Date, plan: Plan, test: boolean): Date {
  return new Date(now.getTime() + (test ? 1 : plan.retention_days) * DAY_MS);
}

/** A cheap early refusal for url responses when storage is already full, before any rendering. */
export async function assertStorageAvailable(
  db: Db,
  teamId: string,
  plan: Plan,
  test: boolean,
): Promise<void> {
  await decideStorage(db, { teamId, plan, test, response: 'url', pdfBytes: 0 });
}
