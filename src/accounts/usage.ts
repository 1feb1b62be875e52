import type { Plan, PlanId } from './plans.js';

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
  overage_blocked_reason: OverageBlockedReason | null;
}

export const SUBSCRIPTIONS = ['active', 'past_due', 'cancel_scheduled', 'none'] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

export type OverageBlockedReason =
  | 'free'
  | 'cancel_scheduled'
  | 'past_due'
  | 'no_subscription'
  | 'billed_this_period';

/** What the operator sets per team (CLI `team set-billing`). */
export interface BillingState {
  subscription: Subscription;
  /** The team's own cap; null = none of its own (the plan's `spending_cap_cents`, default none, applies). */
  spendingCapCents: number | null;
  /** 'YYYY-MM' of the period whose overage was billed. */
  overageBilledPeriod: string | null;
}

/** One entry of a team's plan history: `plan` from `at` on. */
export interface PlanChange {
  plan: PlanId;
  at: Date;
}

/** A monthly UTC period, named 'YYYY-MM' (spec: periods are monthly in UTC, annual plans too). */
export interface Period {
  name: string;
  start: Date;
  end: Date;
}

const PERIOD_NAME = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function periodContaining(at: Date): Period {
  return periodOf(at.getUTCFullYear(), at.getUTCMonth());
}

/** The period named 'YYYY-MM', or null when the name is not one. */
export function parsePeriod(name: string): Period | null {
  const match = PERIOD_NAME.exec(name);
  return match ? periodOf(Number(match[1]), Number(match[2]) - 1) : null;
}

export function previousPeriod(period: Period): Period {
  return periodOf(period.start.getUTCFullYear(), period.start.getUTCMonth() - 1);
}

function periodOf(year: number, month: number): Period {
  const start = new Date(Date.UTC(year, month, 1));
  const end = new Date(Date.UTC(year, month + 1, 1));
  return { name: start.toISOString().slice(0, 7), start, end };
}

/** The plan in effect at `at`: the last change at or before it (the first plan before the first change). */
export function planAt(history: readonly PlanChange[], at: Date): PlanId {
  let current = history[0]?.plan ?? 'free';
  for (const change of history) if (change.at.getTime() <= at.getTime()) current = change.plan;
  return current;
}

/**
 * The period's included documents, prorated by time over the plans in effect:
 *   round( Σ docs_per_period(plan_i) × duration_i / duration of the period )
 * over the pieces of the period between plan changes, rounded half up. The plan in effect at the period
 * start (or, for a team created later, its first plan) covers the period from its start, so a team's first
 * period is not cut short; the current plan covers it to its end. `onlyPaid` leaves out Free pieces.
 */
export function proratedIncluded(
  plans: Record<PlanId, Plan>,
  history: readonly PlanChange[],
  period: Period,
  onlyPaid = false,
): number {
  const length = period.end.getTime() - period.start.getTime();
  let numerator = 0;
  let from = period.start.getTime();
  let plan = planAt(history, period.start);
  const inside = history.filter((c) => c.at > period.start && c.at < period.end);
  for (const change of [...inside, { plan, at: period.end }]) {
    if (!(onlyPaid && plan === 'free'))
      numerator += plans[plan].docs_per_period * (change.at.getTime() - from);
    from = change.at.getTime();
    plan = change.plan;
  }
  // Integers all along (documents × milliseconds stays far below 2^53), one rounding at the end.
  return Math.floor((2 * numerator + length) / (2 * length));
}

/**
 * Rollover: on a paid plan, the previous period's unused included documents — its prorated
 * paid-plan documents minus its documents used, never below 0 — at most one period's worth (the current
 * plan's docs_per_period). Rollover does not compound: the previous period's own rollover is not carried.
 * 0 on Free and in the team's first period.
 */
export function rolloverDocs(input: {
  plans: Record<PlanId, Plan>;
  history: readonly PlanChange[];
  period: Period;
  currentPlan: Plan;
  teamCreatedAt: Date;
  previousUsed: number;
}): number {
  const { currentPlan, period } = input;
  if (currentPlan.id === 'free' || input.teamCreatedAt >= period.start) return 0;
  const previous = previousPeriod(period);
  const unused = proratedIncluded(input.plans, input.history, previous, true) - input.previousUsed;
  return Math.min(currentPlan.docs_per_period, Math.max(0, unused));
}

/**
 * Why overage is unavailable, in this precedence (first match wins): the plan is Free → `free`; the
 * subscription ends at the period's end → `cancel_scheduled`; a payment failed → `past_due`; no
 * subscription, or the plan has no overage price → `no_subscription`; the period's overage was already
 * billed → `billed_this_period`. Null: overage is available.
 */
export function overageBlockedReason(
  plan: Plan,
  billing: BillingState,
  period: Period,
): OverageBlockedReason | null {
  if (plan.id === 'free') return 'free';
  switch (billing.subscription) {
    case 'cancel_scheduled':
      return 'cancel_scheduled';
    case 'past_due':
      return 'past_due';
    case 'none':
      return 'no_subscription';
    case 'active':
      break;
    default: {
      const never: never = billing.subscription;
      throw new Error(`unknown subscription ${String(never)}`);
    }
  }
  if (plan.overage_cents_per_doc === null) return 'no_subscription';
  return billing.overageBilledPeriod === period.name ? 'billed_this_period' : null;
}

/** The cap shown and enforced: the team's own, else the plan's; none on Free (no overage at all). */
export function spendingCapCents(plan: Plan, billing: BillingState): number | null {
  if (plan.id === 'free') return null;
  return billing.spendingCapCents ?? plan.spending_cap_cents;
}

export interface UsageInput {
  plans: Record<PlanId, Plan>;
  period: Period;
  /** The moment the usage is read at (inside the period for the current one). */
  asOf: Date;
  history: readonly PlanChange[];
  teamCreatedAt: Date;
  billing: BillingState;
  /** Counted documents of the period and of the previous one (the usage ledger). */
  used: number;
  previousUsed: number;
}

/** GET /account/usage for one period (spec: Account, plan, usage), from the team's state and ledger. */
export function computeUsage(input: UsageInput): Usage {
  const { plans, period, billing } = input;
  const plan = plans[planAt(input.history, input.asOf)];
  const rollover = rolloverDocs({ ...input, currentPlan: plan });
  const included = proratedIncluded(plans, input.history, period) + rollover;
  const overage = Math.max(0, input.used - included);
  return {
    plan: plan.id,
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    docs_used: input.used,
    docs_included: included,
    rollover_docs: rollover,
    overage_docs: overage,
    overage_cost_cents: overage * (plan.overage_cents_per_doc ?? 0),
    spending_cap_cents: spendingCapCents(plan, billing),
    overage_blocked_reason: overageBlockedReason(plan, billing, period),
  };
}

/**
 * The most live documents the period may hold (counted plus reserved): the included ones when overage is
 * blocked; with overage, as many more as the cap pays for (the next document must not take the period's
 * overage cost past the cap); unlimited without a cap or at a price of 0.
 */
export function documentAllowance(usage: Usage, plan: Plan): number {
  if (usage.overage_blocked_reason !== null) return usage.docs_included;
  const price = plan.overage_cents_per_doc ?? 0;
  if (usage.spending_cap_cents === null || price === 0) return Number.POSITIVE_INFINITY;
  return usage.docs_included + Math.floor(usage.spending_cap_cents / price);
}
