import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { recordPlanChange } from './plan-history.js';
import type { PlanId } from './plans.js';
import { type BillingState, SUBSCRIPTIONS, type Subscription } from './usage.js';

/** A team's billing state with what usage needs besides: its plan and when it was created. */
export interface TeamBilling extends BillingState {
  teamId: string;
  name: string;
  plan: PlanId;
  createdAt: Date;
}

export function isSubscription(value: string): value is Subscription {
  return (SUBSCRIPTIONS as readonly string[]).includes(value);
}

export async function findTeamBilling(db: Db, teamId: string): Promise<TeamBilling | null> {
  const row = await teamBillingQuery(db).where('id', '=', teamId).executeTakeFirst();
  return row ? toTeamBilling(row) : null;
}

export async function listTeamBilling(db: Db): Promise<TeamBilling[]> {
  const rows = await teamBillingQuery(db).orderBy('created_at').orderBy('id').execute();
  return rows.map(toTeamBilling);
}

function teamBillingQuery(db: Db) {
  return db
    .selectFrom('teams')
    .select([
      'id',
      'name',
      'plan',
      'created_at',
      'subscription',
      'spending_cap_cents',
      'overage_billed_period',
    ]);
}

function toTeamBilling(row: {
  id: string;
  name: string;
  plan: string;
  created_at: string;
  subscription: string;
  spending_cap_cents: number | null;
  overage_billed_period: string | null;
}): TeamBilling {
  return {
    teamId: row.id,
    name: row.name,
    plan: row.plan as PlanId,
    createdAt: new Date(row.created_at),
    subscription: isSubscription(row.subscription) ? row.subscription : 'none',
    spendingCapCents: row.spending_cap_cents,
    overageBilledPeriod: row.overage_billed_period,
  };
}

/** Operator changes (CLI `team set-billing`); returns false when no such team exists. */
export async function updateBilling(
  db: Db,
  teamId: string,
  changes: Partial<BillingState>,
): Promise<boolean> {
  const result = await db
    .updateTable('teams')
    .set({
      ...(changes.subscription === undefined ? {} : { subscription: changes.subscription }),
      ...(changes.spendingCapCents === undefined ? {} : { spending_cap_cents: changes.spendingCapCents }),
      ...(changes.overageBilledPeriod === undefined
        ? {}
        : { overage_billed_period: changes.overageBilledPeriod }),
    })
    .where('id', '=', teamId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Moves a team to `plan` now, recording the change time for proration. Moving to Free ends the
 * subscription (Free teams have none); moving from Free to a paid plan starts one (`active`).
 * Returns false when no such team exists.
 */
export async function changePlan(db: Db, clock: Clock, teamId: string, plan: PlanId): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const team = await findTeamBilling(trx, teamId);
    if (!team) return false;
    if (team.plan === plan) return true;
    const subscription =
      plan === 'free' ? 'none' : team.plan === 'free' && team.subscription === 'none' ? 'active' : undefined;
    await trx
      .updateTable('teams')
      .set({ plan, ...(subscription ? { subscription } : {}) })
      .where('id', '=', teamId)
      .execute();
    await recordPlanChange(trx, { teamId, plan, at: clock.now().toISOString() });
    return true;
  });
}
