export { registerMemberRoutes } from './member-routes.js';
export { createSignInLink, renewOwnerLink, type SignInLink } from './provisioning.js';
export { registerSessionRoutes } from './session-routes.js';
export { createSessionLookup, httpsTest, sweepUserRows } from './sessions.js';
export { PasswordThrottle } from './throttle.js';
export { isEmailAddress } from './users.js';
