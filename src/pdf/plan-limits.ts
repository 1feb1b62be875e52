import type { Plan } from '../accounts/plans.js';
import { countDocsUsed, currentPeriod, overageBlockedReason } from '../accounts/usage.js';
import type { AppServices } from '../app.js';
import { AppError } from '../shared/errors.js';
import { assertStorageAvailable } from './storage-policy.js';

/** Whose document is made: enough for limits, storage and records (a request's key or a queued job's team). */
export interface Caller {
  teamId: string;
  plan: Plan;
}

/**
 * Refusals that come before any rendering (spec: plan_limit_reached, spending_cap_reached,
 * storage_limit_reached for stored responses). Test documents are never counted.
 */
export async function assertWithinPlan(
  services: AppServices,
  caller: Caller,
  test: boolean,
  response: 'binary' | 'url',
): Promise<void> {
  if (!test) {
    const { start, end } = currentPeriod(services.clock.now());
    const used = await countDocsUsed(services.db, caller.teamId, start, end);
    if (used >= caller.plan.docs_per_period) assertOverageAllowed(caller.plan, used);
  }
  if (response === 'url') await assertStorageAvailable(services.db, caller.teamId, caller.plan, test);
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
