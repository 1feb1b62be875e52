/** The plans the spec names, cheapest first (spec: Limits). Settings and accounts both validate against it. */
export const PLAN_IDS = ['free', 'starter', 'growth', 'pro', 'scale'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
