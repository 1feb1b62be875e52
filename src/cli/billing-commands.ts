import {
  type BillingState,
  findTeamBilling,
  isSubscription,
  type Plan,
  type PlanId,
  parsePeriod,
  periodContaining,
  SUBSCRIPTIONS,
  type TeamBilling,
  type UsageExportRow,
  UsageService,
  updateBilling,
} from '../accounts/index.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { commandFlags } from './flags.js';
import { UsageError } from './usage-error.js';

/** What the billing commands need: the database, the CLI's clock and the plan table. */
export interface BillingContext {
  db: Db;
  clock: Clock;
  plans: Record<PlanId, Plan>;
  print: (line: string) => void;
}

/** `quire team billing TEAM_ID [--json]`: the team's billing state and its usage this period. */
export async function teamBilling(ctx: BillingContext & { json: boolean }, args: string[]): Promise<void> {
  const { positionals } = commandFlags(args, {}, true);
  const team = await requireTeam(ctx.db, positionals);
  await printBilling(ctx, team, ctx.json);
}

/**
 * `quire team set-billing TEAM_ID [--subscription S] [--spending-cap-cents N | --no-spending-cap]
 * [--overage-billed]`: changes the operator-controlled billing state, then prints it as `team billing --json`.
 */
export async function teamSetBilling(ctx: BillingContext, args: string[]): Promise<void> {
  const { values, positionals } = commandFlags(
    args,
    {
      subscription: { type: 'string' },
      'spending-cap-cents': { type: 'string' },
      'no-spending-cap': { type: 'boolean', default: false },
      'overage-billed': { type: 'boolean', default: false },
    },
    true,
  );
  const team = await requireTeam(ctx.db, positionals);
  const changes: Partial<BillingState> = {};
  if (values.subscription !== undefined) changes.subscription = subscriptionFor(team, values.subscription);
  const cap = values['spending-cap-cents'];
  if (cap !== undefined && values['no-spending-cap'])
    throw new UsageError('Pass either --spending-cap-cents N or --no-spending-cap, not both.');
  if (cap !== undefined) changes.spendingCapCents = centsOf(cap);
  if (values['no-spending-cap']) changes.spendingCapCents = null;
  if (values['overage-billed']) changes.overageBilledPeriod = periodContaining(ctx.clock.now()).name;
  if (Object.keys(changes).length === 0)
    throw new UsageError(
      'Nothing to change: pass --subscription, --spending-cap-cents N, --no-spending-cap or --overage-billed.',
    );
  await updateBilling(ctx.db, team.teamId, changes);
  await printBilling(ctx, { ...team, ...changes }, true);
}

/**
 * `quire usage export --period YYYY-MM [--format csv|json]`: one line per team (CSV with a header line, or
 * one JSON object a line; `--json` is `--format json`).
 */
export async function usageExport(ctx: BillingContext & { json: boolean }, args: string[]): Promise<void> {
  const { values } = commandFlags(args, {
    period: { type: 'string' },
    format: { type: 'string', default: ctx.json ? 'json' : 'csv' },
  });
  const period = parsePeriod(values.period ?? '');
  if (!period) throw new UsageError('--period YYYY-MM is required (a month, e.g. 2026-04).');
  if (values.format !== 'csv' && values.format !== 'json')
    throw new UsageError(`--format must be csv or json, not "${values.format}".`);
  const rows = await new UsageService(ctx).exportPeriod(period, ctx.clock.now());
  if (values.format === 'json') {
    for (const row of rows) ctx.print(JSON.stringify(row));
    return;
  }
  ctx.print(EXPORT_COLUMNS.join(','));
  for (const row of rows) ctx.print(EXPORT_COLUMNS.map((column) => csvField(row[column])).join(','));
}

const EXPORT_COLUMNS: readonly (keyof UsageExportRow)[] = [
  'team_id',
  'team_name',
  'plan',
  'period',
  'docs_used',
  'docs_included',
  'rollover_docs',
  'overage_docs',
  'overage_cost_cents',
];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function printBilling(ctx: BillingContext, team: TeamBilling, json: boolean): Promise<void> {
  const usage = await new UsageService(ctx).inPeriod(
    team,
    periodContaining(ctx.clock.now()),
    ctx.clock.now(),
  );
  if (json) {
    ctx.print(
      JSON.stringify({
        team_id: team.teamId,
        subscription: team.subscription,
        spending_cap_cents: team.spendingCapCents,
        usage,
      }),
    );
    return;
  }
  ctx.print(`Team ${team.name} (${team.teamId}), plan ${usage.plan}, subscription ${team.subscription}`);
  ctx.print(`  spending cap: ${team.spendingCapCents === null ? 'none' : `${team.spendingCapCents} cents`}`);
  ctx.print(`  period ${usage.period_start} to ${usage.period_end}`);
  ctx.print(
    `  documents: ${usage.docs_used} used of ${usage.docs_included} included (${usage.rollover_docs} rolled over)`,
  );
  ctx.print(`  overage: ${usage.overage_docs} documents, ${usage.overage_cost_cents} cents`);
  ctx.print(`  overage blocked: ${usage.overage_blocked_reason ?? 'no'}`);
}

async function requireTeam(db: Db, positionals: string[]): Promise<TeamBilling> {
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new UsageError('Pass exactly one TEAM_ID.');
  const team = await findTeamBilling(db, id);
  if (!team) throw new UsageError(`No team ${id}.`);
  return team;
}

function subscriptionFor(team: TeamBilling, value: string): BillingState['subscription'] {
  if (!isSubscription(value))
    throw new UsageError(`--subscription must be one of ${SUBSCRIPTIONS.join(', ')}.`);
  if (team.plan === 'free' && value !== 'none')
    throw new UsageError(
      `Free teams have no subscription; move the team to a paid plan first (quire team set-plan ${team.teamId} starter).`,
    );
  return value;
}

function centsOf(text: string): number {
  const cents = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(cents))
    throw new UsageError(`--spending-cap-cents must be a whole number of cents (0 or more), not "${text}".`);
  return cents;
}
