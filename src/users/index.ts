import type { App } from '../http/server.js';
import type { JobDefinition } from '../jobs/index.js';
import type { Capability } from '../shared/capability.js';
import type { Clock } from '../shared/clock.js';
import type { RateCounter } from '../shared/rate-counter.js';
import { DatabaseFailureCounter, type Db } from '../storage/index.js';
import type { LinkMail } from './emails.js';
import { registerInvitationRoutes } from './invitation-routes.js';
import { registerMemberRoutes } from './member-routes.js';
import { registerSessionRoutes } from './session-routes.js';
import { type HttpsTest, sweepUserRows } from './sessions.js';
import { PasswordThrottle } from './throttle.js';

export { createSignInLink, renewOwnerLink, type SignInLink } from './provisioning.js';
export { createSessionLookup, httpsTest } from './sessions.js';
export { isEmailAddress } from './users.js';

export interface UsersOptions {
  db: Db;
  clock: Clock;
  rate: RateCounter;
  mail: LinkMail;
  /** The request is served over https (the session cookie's name and Secure flag). */
  https: HttpsTest;
  /** Invitation emails a team may send in any 24 hours (QUIRE_INVITATIONS_PER_DAY). */
  invitationsPerDay: number;
}

/** Users of a team: sign-in and sessions (no key), members and invitations, and their rows' retention. */
export function createUsers(options: UsersOptions): Capability<App, JobDefinition> {
  const { db, clock, rate, mail, https, invitationsPerDay } = options;
  return {
    signedRoutes: (app) =>
      registerSessionRoutes(app, {
        db,
        clock,
        rate,
        mail,
        throttle: new PasswordThrottle(new DatabaseFailureCounter(db), clock),
        https,
      }),
    routes: (app) => {
      registerMemberRoutes(app, { db, clock, mail, invitationsPerDay });
      registerInvitationRoutes(app, { db, clock, mail, invitationsPerDay });
    },
    sweeps: [{ name: 'sessions-and-tokens', run: (now) => sweepUserRows(db, now) }],
  };
}
