import { newId } from '../shared/ids.js';
import type { Db } from '../storage/index.js';
import { isPlanId } from './plans.js';
import type { PlanChange } from './usage.js';

/** Appends "this plan from `at` on" to the team's history (team creation and every plan change). */
export async function recordPlanChange(
  trx: Db,
  change: { teamId: string; plan: string; at: string },
): Promise<void> {
  await trx
    .insertInto('team_plan_changes')
    .values({ id: newId(), team_id: change.teamId, plan: change.plan, changed_at: change.at })
    .execute();
}

/** The team's plan changes up to `until`, oldest first (what proration reads). */
export async function planHistory(db: Db, teamId: string, until: Date): Promise<PlanChange[]> {
  const rows = await db
    .selectFrom('team_plan_changes')
    .select(['plan', 'changed_at'])
    .where('team_id', '=', teamId)
    .where('changed_at', '<=', until.toISOString())
    .orderBy('changed_at')
    .orderBy('id')
    .execute();
  return rows.flatMap((row) =>
    isPlanId(row.plan) ? [{ plan: row.plan, at: new Date(row.changed_at) }] : [],
  );
}
