import type { Plan } from './plans.js';

export interface Usage {
  plan: string;
  period_start: string;
  period_end: string;
  docs_used: number;
  docs_included: number;
  rollover_docs: number;
  overage_docs: number;
  overage_cost_cents: number;
  spending_cap_cents: number | null;
  overage_blocked_reason: string | null;
}

/** The monthly UTC period containing `now` (spec: periods are monthly in UTC). */
export function currentPeriod(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Counts a team's successful live documents in [start, end); the documents capability owns the rows. */
export type DocsUsedCounter = (teamId: string, start: Date, end: Date) => Promise<number>;

/**
 * Why overage is unavailable: Free plans never have it; self-hosted paid plans have it only when the plans
 * file gives a per-document price (there is no billing provider, hence `no_subscription`).
 */
export function overageBlockedReason(plan: Plan): string | null {
  if (plan.id === 'free') return 'free';
  return plan.overage_cents_per_doc === null ? 'no_subscription' : null;
}

export async function usageFor(
  docsUsed: DocsUsedCounter,
  teamId: string,
  plan: Plan,
  now: Date,
): Promise<Usage> {
  const { start, end } = currentPeriod(now);
  const used = await docsUsed(teamId, start, end);
  const overage = Math.max(0, used - plan.docs_per_period);
  return {
    plan: plan.id,
    period_start: start.toISOString(),
    period_end: end.toISOString(),
    docs_used: used,
    docs_included: plan.docs_per_period,
    // Rollover needs billing history, which a self-hosted install does not have.
    rollover_docs: 0,
    overage_docs: overage,
    overage_cost_cents: overage * (plan.overage_cents_per_doc ?? 0),
    spending_cap_cents: plan.id === 'free' ? null : plan.spending_cap_cents,
    overage_blocked_reason: overageBlockedReason(plan),
  };
}
