import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { registerKeyRoutes } from './key-routes.js';
import { registerAccountRoutes } from './routes.js';
import type { TestDocumentsPerDay } from './usage-daily.js';
import type { UsageService } from './usage-service.js';

export type { KeyMode } from './api-keys.js';
export {
  type AuthContext,
  authOf,
  creatorOfRequest,
  hasRole,
  ROLES,
  type Role,
  requireManager,
  requireSessionRole,
} from './auth-context.js';
export { checkCsrf, createAuthHook, type ResolvedSession, type SessionLookup } from './auth-hook.js';
export { authenticate } from './authenticate.js';
export { changePlan, findTeamBilling, isSubscription, type TeamBilling, updateBilling } from './billing.js';
export { KeySchema as ApiKeySchema, present as presentApiKey } from './key-routes.js';
export {
  EMAILS_PER_ADDRESS_PER_DAY,
  isPlanId,
  loadPlans,
  type Plan,
  type PlanId,
  TEST_STORAGE_BYTES,
} from './plans.js';
export { keysMadeBy, revokeKeys, teamKeys } from './team-keys.js';
export {
  type ApiKey,
  type Creator,
  countTeams,
  createApiKey,
  createTeam,
  creatorColumns,
  creatorOf,
  findTeam,
  listTeams,
  planOfTeam,
  revokeApiKey,
  type Team,
  updateTeam,
} from './teams.js';
export { type BillingState, parsePeriod, periodContaining, SUBSCRIPTIONS } from './usage.js';
export { type UsageExportRow, UsageService } from './usage-service.js';

export interface AccountsOptions {
  db: Db;
  clock: Clock;
  usage: UsageService;
  testDocumentsPerDay: TestDocumentsPerDay;
}

/** The team's account, usage and API keys (the auth hook that reads the keys is wired by app.ts). */
export function createAccounts(options: AccountsOptions): Capability<App, JobDefinition> {
  return {
    routes(app) {
      registerAccountRoutes(app, options);
      registerKeyRoutes(app, options);
    },
  };
}
