import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { findTeamBilling, listTeamBilling, type TeamBilling } from './billing.js';
import { planHistory } from './plan-history.js';
import type { Plan, PlanId } from './plans.js';
import {
  computeUsage,
  documentAllowance,
  type Period,
  periodContaining,
  previousPeriod,
  type Usage,
} from './usage.js';
import {
  addHold,
  countUsed,
  recordUsed,
  release,
  renewHolds,
  repairHolds,
  reserveAgain,
  reservedCount,
  takeHold,
  tryReserve,
} from './usage-ledger.js';

/** One line of `quire usage export` (the numbers equal GET /account/usage for that period). */
export interface UsageExportRow {
  team_id: string;
  team_name: string;
  plan: string;
  period: string;
  docs_used: number;
  docs_included: number;
  rollover_docs: number;
  overage_docs: number;
  overage_cost_cents: number;
}

/**
 * Usage and its enforcement over the ledger: GET /account/usage, the CLI's billing views, and the
 * reservation every live document takes before anything is rendered.
 */
export class UsageService {
  /** This process as the holder of its not-yet-durable reservations (a reused pid is another holder). */
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private heartbeat: NodeJS.Timeout | null = null;

  /**
   * `plans` is read live: tests and the plans file may change numbers after start. `holdTtlMs`: how long a
   * hold lives without its holder's heartbeat (PostgreSQL); the bound on a dead process's reservations.
   */
  constructor(
    private readonly deps: {
      db: Db;
      plans: Record<PlanId, Plan>;
      holdTtlMs?: number;
      nowMs?: () => number;
      onError?: (err: unknown) => void;
    },
  ) {}

  /** The team's usage in the period containing `now`; null when no such team exists. */
  async current(teamId: string, now: Date): Promise<Usage | null> {
    const team = await findTeamBilling(this.deps.db, teamId);
    return team ? this.inPeriod(team, periodContaining(now), now) : null;
  }

  /** Usage of any period as of `now` (a past period as of its last moment). */
  async inPeriod(team: TeamBilling, period: Period, now: Date): Promise<Usage> {
    const { db, plans } = this.deps;
    const asOf = clampToPeriod(period, now);
    const [history, used, previousUsed] = await Promise.all([
      planHistory(db, team.teamId, asOf),
      countUsed(db, team.teamId, period.name),
      countUsed(db, team.teamId, previousPeriod(period).name),
    ]);
    // A team without history (not possible after migration 0009) is on its current plan throughout.
    const changes = history.length > 0 ? history : [{ plan: team.plan, at: team.createdAt }];
    return computeUsage({
      plans,
      period,
      asOf,
      history: changes,
      teamCreatedAt: team.createdAt,
      billing: team,
      used,
      previousUsed,
    });
  }

  /** Every team's numbers for one period, as `quire usage export` prints them. */
  async exportPeriod(period: Period, now: Date): Promise<UsageExportRow[]> {
    const teams = await listTeamBilling(this.deps.db);
    const rows: UsageExportRow[] = [];
    for (const team of teams) {
      const usage = await this.inPeriod(team, period, now);
      rows.push({
        team_id: team.teamId,
        team_name: team.name,
        plan: usage.plan,
        period: period.name,
        docs_used: usage.docs_used,
        docs_included: usage.docs_included,
        rollover_docs: usage.rollover_docs,
        overage_docs: usage.overage_docs,
        overage_cost_cents: usage.overage_cost_cents,
      });
    }
    return rows;
  }

  /**
   * Reserves `count` live documents of the period containing `at` before anything is rendered (spec:
   * plan_limit_reached, spending_cap_reached), all or none. Returns the period the documents count in.
   */
  async reserve(teamId: string, count: number, at: Date): Promise<{ period: string }> {
    const { db, plans } = this.deps;
    const team = await findTeamBilling(db, teamId);
    if (!team) throw new AppError('forbidden', 'The team no longer exists.');
    const period = periodContaining(at);
    const usage = await this.inPeriod(team, period, at);
    const plan = plans[usage.plan as PlanId];
    const key = { teamId, period: period.name };
    const max = documentAllowance(usage, plan);
    // The reservation and this process's hold commit together: a crash leaves both or neither.
    const reserved = await db.transaction().execute(async (trx) => {
      if (!(await tryReserve(trx, key, count, max))) return false;
      await addHold(trx, { holder: this.holder, ...key }, count, this.expiry());
      return true;
    });
    if (reserved) return { period: period.name };
    throw refusal(usage, plan, count, await reservedCount(db, key));
  }

  /** Gives back reservations of documents that will not be counted (held by this process since `reserve`). */
  async release(teamId: string, period: string, count = 1): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      // A hold already repaired was given back then.
      if (await takeHold(trx, { holder: this.holder, teamId, period }, count))
        await release(trx, { teamId, period }, count);
    });
  }

  /**
   * Reservations this process holds became durable in `trx` (queued documents, a direct document's ledger
   * row): no longer held. If a repair gave them back meanwhile (this process stalled past the hold's
   * lifetime), they are reserved again: the documents exist and count.
   */
  async settle(trx: Db, teamId: string, period: string, count: number): Promise<void> {
    if (!(await takeHold(trx, { holder: this.holder, teamId, period }, count)))
      await reserveAgain(trx, { teamId, period }, count);
  }

  /**
   * Gives back what dead processes held. `everyOtherHolder` (SQLite, at start): only this process serves
   * the API, so every earlier holder is gone. Otherwise (PostgreSQL) holds past their lifetime, at start
   * and then from the heartbeat that also renews this process's own holds every third of that lifetime.
   */
  async recoverHolds(options: { everyOtherHolder: boolean; heartbeat: boolean }): Promise<number> {
    const released = options.everyOtherHolder
      ? await repairHolds(this.deps.db, { othersThan: this.holder })
      : await repairHolds(this.deps.db, { expiredBefore: this.nowMs() });
    if (options.heartbeat && !this.heartbeat) {
      this.heartbeat = setInterval(() => void this.beat(), Math.max(10, Math.floor(this.ttlMs() / 3)));
      this.heartbeat.unref();
    }
    return released;
  }

  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private async beat(): Promise<void> {
    try {
      await renewHolds(this.deps.db, this.holder, this.expiry());
      await repairHolds(this.deps.db, { expiredBefore: this.nowMs() });
    } catch (err) {
      this.deps.onError?.(err);
    }
  }

  private ttlMs(): number {
    return this.deps.holdTtlMs ?? 30_000;
  }

  private nowMs(): number {
    return (this.deps.nowMs ?? Date.now)();
  }

  private expiry(): number {
    return this.nowMs() + this.ttlMs();
  }

  /** Gives back documents' reservations inside the transaction that ends them uncounted. */
  async releaseIn(trx: Db, teamId: string, period: string, count = 1): Promise<void> {
    await release(trx, { teamId, period }, count);
  }

  /** The ledger row of a counted document, in the transaction that records it. */
  async record(
    trx: Db,
    entry: { documentId: string; teamId: string; period: string; at: Date },
  ): Promise<void> {
    await recordUsed(trx, entry);
  }
}

function clampToPeriod(period: Period, now: Date): Date {
  if (now < period.start) return period.start;
  if (now >= period.end) return new Date(period.end.getTime() - 1);
  return now;
}

function refusal(usage: Usage, plan: Plan, count: number, reserved: number): AppError {
  const reason = usage.overage_blocked_reason;
  const batch = count > 1 ? `These ${count} documents do not fit: t` : 'T';
  if (reason !== null) {
    const left = Math.max(0, usage.docs_included - reserved);
    return new AppError(
      'plan_limit_reached',
      `${batch}he ${plan.name} plan's ${usage.docs_included} included documents for this period` +
        `${count > 1 ? ` have ${left} left` : ' are used up'}, and overage is not available (${reason}).`,
    );
  }
  return new AppError(
    'spending_cap_reached',
    `${batch}he next document would take this period's overage cost past the spending cap of ` +
      `${usage.spending_cap_cents} cents. Raise the cap or wait for the next period.`,
  );
}
