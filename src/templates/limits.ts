import type { AuthContext, Plan } from '../accounts/index.js';
import { AppError } from '../shared/errors.js';
import { type RateCounter, spendBudget } from '../shared/rate-counter.js';
import { testModeGuard } from '../shared/test-mode-guard.js';

/** Spec "Limits": template changes (create, update, pin, delete) per minute per team. */
export const TEMPLATE_CHANGES_PER_MIN = 60;
/** Spec "Limits": previews per minute per team and key mode. */
export const PREVIEWS_PER_MIN = 30;
/** Spec "Limits": all templates including deleted ones may be the plan's number plus this. */
export const DELETED_TEMPLATE_ALLOWANCE = 100;

/**
 * Spec "Authentication" 4: test keys cannot create, update, pin or delete templates. A dashboard session in
 * test mode is refused alike, in words about the mode it can switch rather than about keys it never used.
 */
export const assertLiveKey = testModeGuard({
  session:
    'Test mode can read and preview templates but not change them: switch to Live mode to edit templates.',
  key: 'Test keys can read and preview templates but not change them.',
});

async function hitBudget(
  rate: RateCounter,
  key: string,
  limit: number,
  nowMs: number,
  what: string,
): Promise<void> {
  await spendBudget(rate, { key, limit, nowMs, message: `More than ${limit} ${what} per minute.` });
}

/** Counts one template change for the team (shared with the dashboard, which uses the same key). */
export function hitChangeBudget(rate: RateCounter, teamId: string, nowMs: number): Promise<void> {
  return hitBudget(rate, `templates:changes:${teamId}`, TEMPLATE_CHANGES_PER_MIN, nowMs, 'template changes');
}

export function hitPreviewBudget(rate: RateCounter, auth: AuthContext, nowMs: number): Promise<void> {
  return hitBudget(
    rate,
    `templates:previews:${auth.team.id}:${auth.mode}`,
    PREVIEWS_PER_MIN,
    nowMs,
    'previews',
  );
}

/** Spec "Limits": templates per plan; deleted ones do not count but are capped together with the rest. */
export function assertTemplateQuota(counts: { live: number; all: number }, plan: Plan): void {
  if (counts.live >= plan.templates) {
    throw new AppError('plan_limit_reached', `The ${plan.name} plan allows ${plan.templates} templates.`, {
      limit: 'templates',
      max: plan.templates,
    });
  }
  const max = plan.templates + DELETED_TEMPLATE_ALLOWANCE;
  if (counts.all >= max) {
    throw new AppError(
      'plan_limit_reached',
      `At most ${max} templates including deleted ones (kept 30 days) are allowed on the ${plan.name} plan.`,
      { limit: 'templates_including_deleted', max },
    );
  }
}
