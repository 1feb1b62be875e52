export { registerMemberRoutes } from './member-routes.js';
export { createSignInLink, ensureAdminUser } from './provisioning.js';
export { registerSessionRoutes } from './session-routes.js';
export { createSessionLookup, sweepUserRows } from './sessions.js';
export { isEmailAddress } from './users.js';
