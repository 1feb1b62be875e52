import { Type } from 'typebox';
import type { App } from '../http/server.js';
import { AppError } from '../shared/errors.js';
import { registerAccountRoutes } from './account-routes.js';
import { registerAuthRoutes } from './auth-routes.js';
import { hashPassword, needsRehash, passwordMatches } from './passwords.js';
import { sessionRoute } from './route-docs.js';
import { Bodies, SessionSchema } from './schemas.js';
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
    sessionRoute('signIn', { body: Bodies.signIn, response: { 200: SessionSchema } }),
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

  app.get('/session', sessionRoute('getSession', { response: { 200: SessionSchema } }), async (request) =>
    sessionView(await currentSession(request)),
  );

  app.delete(
    '/session',
    sessionRoute('signOut', { response: { 204: Type.Null() } }),
    async (request, reply) => {
      const session = await currentSession(request);
      await deleteSession(db, session.idHash);
      clearSessionCookie(reply, deps.https(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/session/mode',
    sessionRoute('setSessionMode', { body: Bodies.mode, response: { 200: SessionSchema } }),
    async (request) => {
      const session = await currentSession(request);
      await updateSession(db, session.idHash, { mode: request.body.mode });
      await rememberMode(db, session.user.id, session.team.id, request.body.mode);
      return sessionView({ ...session, mode: request.body.mode });
    },
  );

  app.put(
    '/session/team',
    sessionRoute('setSessionTeam', { body: Bodies.team, response: { 200: SessionSchema } }),
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
  registerAccountRoutes(app, deps, actions);
}
