import { readFileSync } from 'node:fs';

import { PLAN_IDS, type PlanId } from '../shared/plan-ids.js';

export { PLAN_IDS, type PlanId };

/** Every per-plan number. Spec values where the spec gives them; documented defaults where it says "not shown". */
export interface Plan {
  id: PlanId;
  name: string;
  /** Included live documents per monthly period (spec: not shown). */
  docs_per_period: number;
  /** Live-key requests per minute (spec). Test keys get QUIRE_TEST_KEY_RATE_PER_MIN (spec: 20) on every plan. */
  rate_limit_per_min: number;
  /** PDFs rendering at once per team (spec). */
  render_concurrency: number;
  /** Background jobs waiting or rendering at once (spec). */
  open_jobs: number;
  /** Test-mode background jobs queued per 24 hours (spec). */
  test_jobs_per_day: number;
  /** Live templates per team (spec); all including deleted may be this plus 100. */
  templates: number;
  /** Bytes of stored live PDFs (spec). */
  storage_bytes: number;
  /** Emails per team in any 24 hours (spec). */
  emails_per_day: number;
  /** Items per batch (spec: not shown). */
  batch_max_items: number;
  /** Days a live PDF is stored (spec: not shown). */
  retention_days: number;
  /** Whether webhooks are available (spec: Free has none). */
  webhooks: boolean;
  /** Cents per document beyond the included ones; null = no overage on this plan (Free). */
  overage_cents_per_doc: number | null;
  /** Cap on a period's overage cost in cents for teams without a cap of their own; null = none. */
  spending_cap_cents: number | null;
}

export const TEST_STORAGE_BYTES = 200 * 1024 * 1024;
/** Spec "Limits": emails a day to the same address, on every plan. */
export const EMAILS_PER_ADDRESS_PER_DAY = 20;

const MB = 1024 * 1024;
const GB = 1024 * MB;

const DEFAULT_PLANS: Record<PlanId, Plan> = {
  free: plan('free', 'Free', 100, 30, 1, 50, 100, 5, 500 * MB, 10, 100, 7, false, null),
  starter: plan('starter', 'Starter', 2_000, 60, 2, 1_000, 2_000, 25, 5 * GB, 500, 1_000, 30, true, 3),
  growth: plan('growth', 'Growth', 10_000, 120, 3, 2_000, 4_000, 100, 20 * GB, 2_000, 5_000, 60, true, 2),
  pro: plan('pro', 'Pro', 50_000, 300, 4, 5_000, 10_000, 2_000, 60 * GB, 5_000, 10_000, 90, true, 1),
  scale: plan(
    'scale',
    'Scale',
    200_000,
    600,
    4,
    10_000,
    20_000,
    2_000,
    200 * GB,
    10_000,
    10_000,
    90,
    true,
    1,
  ),
};

function plan(
  id: PlanId,
  name: string,
  docs: number,
  rpm: number,
  concurrency: number,
  openJobs: number,
  testJobs: number,
  templates: number,
  storage: number,
  emails: number,
  batchMax: number,
  retentionDays: number,
  webhooks: boolean,
  overageCentsPerDoc: number | null,
): Plan {
  return {
    id,
    name,
    docs_per_period: docs,
    rate_limit_per_min: rpm,
    render_concurrency: concurrency,
    open_jobs: openJobs,
    test_jobs_per_day: testJobs,
    templates,
    storage_bytes: storage,
    emails_per_day: emails,
    batch_max_items: batchMax,
    retention_days: retentionDays,
    webhooks,
    // A Quire default (the spec shows no prices); overage also needs an active subscription.
    overage_cents_per_doc: overageCentsPerDoc,
    spending_cap_cents: null,
  };
}

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

const NUMERIC_KEYS = [
  'docs_per_period',
  'rate_limit_per_min',
  'render_concurrency',
  'open_jobs',
  'test_jobs_per_day',
  'templates',
  'storage_bytes',
  'emails_per_day',
  'batch_max_items',
  'retention_days',
] as const;

/** The plan table: defaults, overridden per plan and key by an optional JSON file (QUIRE_PLANS_FILE). */
export function loadPlans(file: string | null): Record<PlanId, Plan> {
  const plans = structuredClone(DEFAULT_PLANS);
  if (!file) return plans;
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  for (const [id, overrides] of Object.entries(raw)) {
    if (!isPlanId(id)) throw new Error(`plans file: unknown plan "${id}"`);
    applyOverrides(plans[id], overrides);
  }
  return plans;
}

function applyOverrides(target: Plan, overrides: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(overrides)) {
    if ((NUMERIC_KEYS as readonly string[]).includes(key)) {
      if (!Number.isInteger(value) || (value as number) < 0)
        throw new Error(`plans file: ${target.id}.${key} must be a non-negative integer`);
      (target as unknown as Record<string, number>)[key] = value as number;
    } else if (key === 'webhooks' && typeof value === 'boolean') {
      target.webhooks = value;
    } else if (key === 'name' && typeof value === 'string') {
      target.name = value;
    } else if (
      (key === 'overage_cents_per_doc' || key === 'spending_cap_cents') &&
      (value === null || (Number.isInteger(value) && (value as number) >= 0))
    ) {
      target[key] = value as number | null;
    } else {
      throw new Error(`plans file: ${target.id}.${key} is not a known plan setting`);
    }
  }
}
