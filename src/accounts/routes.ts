import { type Static, type TSchema, Type } from 'typebox';
import { withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, DateTime, Nullable, named } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { type AuthContext, authOf, requireRole } from './auth-context.js';
import { updateBilling } from './billing.js';
import { registerDailyUsageRoute, type TestDocumentsPerDay } from './usage-daily.js';
import type { UsageService } from './usage-service.js';

const TeamSchema = Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String() });
const KeyMode = Type.Union([Type.Literal('live'), Type.Literal('test')]);

const MeResponse = named(
  'Me',
  Type.Object({
    team: TeamSchema,
    plan: Type.Object({
      id: Type.String(),
      name: Type.String(),
      docs_per_period: Type.Integer(),
      rate_limit_per_min: Type.Integer(),
      webhooks: Type.Boolean(),
      batch_max_items: Type.Integer(),
      emails_per_day: Type.Integer(),
    }),
    key: Type.Object(
      {
        id: Nullable(Type.String()),
        name: Type.String(),
        mode: KeyMode,
        prefix: Nullable(Type.String()),
      },
      {
        description:
          'The bearer key; for a dashboard session id and prefix are null and mode is the session’s.',
      },
    ),
  }),
);

const AccountResponse = named(
  'Account',
  Type.Object({
    team: TeamSchema,
    key: Type.Object({ mode: KeyMode, prefix: Nullable(Type.String()) }),
  }),
);

const SpendingCapBody = named(
  'SpendingCapRequest',
  Type.Object(
    {
      spending_cap_cents: Nullable(
        Type.Integer({
          minimum: 0,
          maximum: 100_000_000,
          description: 'Cap on a period’s overage; null: none',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

const SESSION_KEY_NAME = 'dashboard session';

const UsageResponse = named(
  'Usage',
  Type.Object({
    plan: Type.String(),
    period_start: DateTime,
    period_end: DateTime,
    docs_used: Type.Integer(),
    docs_included: Type.Integer(),
    rollover_docs: Type.Integer(),
    overage_docs: Type.Integer(),
    overage_cost_cents: Type.Integer(),
    spending_cap_cents: Nullable(Type.Integer()),
    overage_blocked_reason: Nullable(Type.String()),
  }),
);

/** GET /me, /account, /account/usage (spec: Account, plan, usage) and the daily usage extension. */
export function registerAccountRoutes(
  app: App,
  deps: { db: Db; clock: Clock; usage: UsageService; testDocumentsPerDay: TestDocumentsPerDay },
): void {
  registerDailyUsageRoute(app, deps);
  registerAccountRead(app, {
    url: '/me',
    operationId: 'getMe',
    summary: 'Team, plan and key of the caller',
    description:
      'The key’s view of itself: its team, the team’s plan and the key (mode, role, prefix). Call it to check that a key works and whether it is a test or a live key. Errors: `invalid_api_key` (missing, malformed, unknown or revoked key).',
    answer: MeResponse,
    respond: presentMe,
  });
  registerAccountRead(app, {
    url: '/account',
    operationId: 'getAccount',
    summary: 'Team and key',
    description:
      'The team the key belongs to and the key itself, as the dashboard’s account page shows them. Errors: `invalid_api_key` (missing, malformed, unknown or revoked key).',
    answer: AccountResponse,
    respond: presentAccount,
  });
  registerAccountRead(app, {
    url: '/account/usage',
    operationId: 'getUsage',
    summary: 'Document usage in the current monthly UTC period',
    description:
      'Documents rendered in the current monthly UTC period against the plan’s included documents, with rollover, overage, its cost and the spending cap. Test-key renders are not counted. Check it before a large batch. Errors: `invalid_api_key`.',
    answer: UsageResponse,
    respond: (auth) => currentUsage(deps, auth.team.id),
  });

  app.put(
    '/account/spending-cap',
    {
      schema: {
        tags: ['Dashboard'],
        operationId: 'setSpendingCap',
        summary: 'Set or clear the team’s spending cap (an owner’s session)',
        description:
          'Owners only. An API key is never an owner (its role is admin or member), so only an owner signed into the dashboard can change the cap; a key gets 403 forbidden. Errors: `forbidden`, `unauthenticated`, `invalid_request`.',
        security: [{ session: [] }],
        body: withExamples(SpendingCapBody, {
          cap: { summary: 'Cap overage at 50.00', value: { spending_cap_cents: 5000 } },
        }),
        response: { 200: UsageResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const { team } = requireRole(request, 'owner');
      await updateBilling(deps.db, team.id, { spendingCapCents: request.body.spending_cap_cents });
      return currentUsage(deps, team.id);
    },
  );
}

/** A read of the caller's own account (tag Account): answered from its auth context, for any key or session. */
interface AccountRead<Answer extends TSchema> {
  url: string;
  operationId: string;
  summary: string;
  description: string;
  answer: Answer;
  respond(auth: AuthContext): Promise<Static<Answer>> | Static<Answer>;
}

function registerAccountRead<Answer extends TSchema>(app: App, route: AccountRead<Answer>): void {
  const { url, answer, respond, ...doc } = route;
  // Widened on purpose: the type provider cannot resolve a generic answer schema; `respond` checks the answer.
  const response: Record<number, TSchema> = { 200: answer, ...COMMON_ERRORS };
  app.get(url, { schema: { tags: ['Account'], ...doc, response } }, async (request) =>
    respond(authOf(request)),
  );
}

/** The team as /me and /account show it (TeamSchema). */
function presentTeam(team: AuthContext['team']): Static<typeof TeamSchema> {
  return { id: team.id, name: team.name, plan: team.plan };
}

function presentMe({ team, plan, key, mode }: AuthContext): Static<typeof MeResponse> {
  return {
    team: presentTeam(team),
    plan: {
      id: plan.id,
      name: plan.name,
      docs_per_period: plan.docs_per_period,
      rate_limit_per_min: plan.rate_limit_per_min,
      webhooks: plan.webhooks,
      batch_max_items: plan.batch_max_items,
      emails_per_day: plan.emails_per_day,
    },
    key: key
      ? { id: key.id, name: key.name, mode: key.mode, prefix: key.prefix }
      : { id: null, name: SESSION_KEY_NAME, mode, prefix: null },
  };
}

function presentAccount({ team, key, mode }: AuthContext): Static<typeof AccountResponse> {
  return { team: presentTeam(team), key: { mode, prefix: key?.prefix ?? null } };
}

async function currentUsage(deps: { clock: Clock; usage: UsageService }, teamId: string) {
  const usage = await deps.usage.current(teamId, deps.clock.now());
  // The authenticated team exists; should it vanish mid-request, its key no longer does either.
  if (!usage) throw new AppError('invalid_api_key', 'The team of this key no longer exists.');
  return usage;
}
