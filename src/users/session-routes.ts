import { Type } from 'typebox';
import type { App } from '../http/server.js';
import { AppError } from '../shared/errors.js';
import { registerAuthRoutes, sessionRoute } from './auth-routes.js';
import { hashPassword, needsRehash, passwordMatches } from './passwords.js';
import { Bodies, PUBLIC, SESSION_ONLY, SessionSchema } from './schemas.js';
import {
  type SessionActions,
  type SessionRouteDeps,
  sessionActions,
  sessionView,
  WRONG_CREDENTIALS,
} from './session-actions.js';
import { moveSessionToTeam } from './session-steps.js';
import { clearSessionCookie, deleteSession, rememberMode, updateSession } from './sessions.js';
import { findMembership, findUserByEmail, setPasswordHash } from './users.js';

/**
 * Session and auth routes of the dashboard (contract: Dashboard routes). Registered in the /v1 scope but
 * outside the bearer-key hook: they authenticate by the cookie themselves (or not at all, for sign-in).
 */
export function registerSessionRoutes(app: App, deps: SessionRouteDeps): void {
  const { db } = deps;
  const actions: SessionActions = sessionActions(deps);
  const { startSession, currentSession, addressCeiling, teamToSignInto } = actions;

  app.post(
    '/session',
    sessionRoute({
      operationId: 'signIn',
      security: PUBLIC,
      summary: 'Sign in with email and password (sets the session cookie)',
      description:
        'The cookie is quire_session over http and __Host-quire_session (Secure) over https. Wrong passwords slow later attempts: after 10 from one address it is refused (429, Retry-After 1 s, 2 s, 4 s … up to 15 min after its last failure); after 10 on one account every attempt on it is answered up to 5 s later. No account is locked. Errors: `invalid_credentials` (the answer does not say which of email or password is wrong), `rate_limited` (too many failures: wait Retry-After), `invalid_request`.',
      body: Bodies.signIn,
      response: { 200: SessionSchema },
    }),
    async (request, reply) => {
      const { email, password } = request.body;
      const attempt = { account: email, address: request.ip };
      // The ceiling and the delays come before any hashing: a flood costs no argon2 work.
      await addressCeiling(request);
      await deps.throttle.before(attempt);
      const user = await findUserByEmail(db, email);
      // An unknown email still costs one argon2 verification: same answer, similar timing.
      const ok = await passwordMatches(user?.passwordHash ?? null, password);
      if (!user?.passwordHash || !ok) {
        await deps.throttle.failed(attempt);
        throw new AppError('invalid_credentials', WRONG_CREDENTIALS);
      }
      // Hashes made with other argon2 parameters are upgraded while the password is at hand.
      if (needsRehash(user.passwordHash)) await setPasswordHash(db, user.id, await hashPassword(password));
      return startSession(request, reply, user.id, await teamToSignInto(user.id));
    },
  );

  app.get(
    '/session',
    sessionRoute({
      operationId: 'getSession',
      security: SESSION_ONLY,
      summary: 'The current session',
      description:
        'The signed-in user, their team and role, the mode (test or live) and the CSRF token the dashboard sends with every change. The dashboard reads it on load; API keys cannot call it. Errors: `unauthenticated` (no session, or it expired: sign in again).',
      response: { 200: SessionSchema },
    }),
    async (request) => sessionView(await currentSession(request)),
  );

  app.delete(
    '/session',
    sessionRoute({
      operationId: 'signOut',
      security: SESSION_ONLY,
      summary: 'Sign out (clears the cookie)',
      description:
        'Ends this session and clears its cookie; the user’s other sessions stay signed in. Send the session’s x-csrf-token. Errors: `unauthenticated`, `forbidden` (a missing or wrong x-csrf-token).',
      response: { 204: Type.Null() },
    }),
    async (request, reply) => {
      const session = await currentSession(request);
      await deleteSession(db, session.idHash);
      clearSessionCookie(reply, deps.https(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/session/mode',
    sessionRoute({
      operationId: 'setSessionMode',
      security: SESSION_ONLY,
      summary: 'Switch the session between test and live mode',
      description:
        'Extension: the choice is remembered per person and team, and their next session starts in it. ' +
        'Before any choice a session starts in live mode for an owner and in test mode for other roles. ' +
        'In test mode template and brand-asset changes are refused with `forbidden`, in words about the mode.',
      body: Bodies.mode,
      response: { 200: SessionSchema },
    }),
    async (request) => {
      const session = await currentSession(request);
      await updateSession(db, session.idHash, { mode: request.body.mode });
      await rememberMode(db, session.user.id, session.team.id, request.body.mode);
      return sessionView({ ...session, mode: request.body.mode });
    },
  );

  app.put(
    '/session/team',
    sessionRoute({
      operationId: 'setSessionTeam',
      security: SESSION_ONLY,
      summary: 'Switch the session to another team of the user',
      description:
        'Switches the session to another team the user belongs to: what the dashboard shows and changes from then on is that team’s. Errors: `unauthenticated`, `forbidden` (not a member of that team, or a wrong x-csrf-token), `invalid_request`.',
      body: Bodies.team,
      response: { 200: SessionSchema },
    }),
    async (request) => {
      const session = await currentSession(request);
      const membership = await findMembership(db, session.user.id, request.body.team_id);
      if (!membership) {
        throw new AppError('forbidden', `You are not a member of team ${request.body.team_id}.`);
      }
      return moveSessionToTeam(deps, session, membership.teamId);
    },
  );

  registerAuthRoutes(app, deps, actions);
}
