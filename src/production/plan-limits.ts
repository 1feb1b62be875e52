import type { Plan } from '../accounts/plans.js';
import { currentPeriod, overageBlockedReason } from '../accounts/usage.js';
import { AppError } from '../shared/errors.js';
import type { Caller } from './ports.js';
import { assertStorageAvailable, type StorageLedger } from './storage-policy.js';

/** What the plan checks read: the documents capability counts its own rows. */
export interface UsageLedger extends StorageLedger {
  /** Successful, counted live documents of the team in [start, end). */
  docsUsed(teamId: string, start: Date, end: Date): Promise<number>;
}

/**
 * Refusals that come before any rendering (spec: plan_limit_reached, spending_cap_reached, and
 * storage_limit_reached when the file must be stored). Test documents are never counted.
 */
export async function assertWithinPlan(
  ledger: UsageLedger,
  now: Date,
  caller: Caller,
  input: { test: boolean; mustStore: boolean },
): Promise<void> {
  if (!input.test) {
    const { start, end } = currentPeriod(now);
    const used = await ledger.docsUsed(caller.teamId, start, end);
    if (used >= caller.plan.docs_per_period) assertOverageAllowed(caller.plan, used);
  }
  if (input.mustStore) await assertStorageAvailable(ledger, caller, input.test);
}

function assertOverageAllowed(plan: Plan, used: number): void {
  if (overageBlockedReason(plan) !== null || plan.overage_cents_per_doc === null) {
    throw new AppError(
      'plan_limit_reached',
      `The ${plan.name} plan's ${plan.docs_per_period} documents for this period are used up.`,
    );
  }
  const nextCost = (used + 1 - plan.docs_per_period) * plan.overage_cents_per_doc;
  if (plan.spending_cap_cents !== null && nextCost > plan.spending_cap_cents) {
    throw new AppError(
      'spending_cap_reached',
      'The next document would exceed the spending cap for this period.',
    );
  }
}
