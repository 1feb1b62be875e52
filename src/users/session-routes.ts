import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { KeyMode } from '../accounts/api-keys.js';
import { checkCsrf } from '../accounts/auth-hook.js';
import { ipBudgetKey } from '../http/client-address.js';
import { noStoreOnSend } from '../http/no-store.js';
import { COMMON_ERRORS, ErrorResponse } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { RateCounter } from '../shared/rate-counter.js';
import type { Db } from '../storage/db.js';
import { type LinkMail, sendLinkEmail } from './emails.js';
import { checkPasswordRule, hashPassword, passwordMatches } from './passwords.js';
import { Bodies, EmptySchema, PUBLIC, SESSION_ONLY, SessionSchema, TAGS, VerifiedSchema } from './schemas.js';
import {
  ABSOLUTE_MS,
  clearSessionCookie,
  createSession,
  csrfTokenFor,
  deleteSession,
  deleteUserSessions,
  type LiveSession,
  loadSession,
  rememberMode,
  sessionIdOf,
  setSessionCookie,
  updateSession,
} from './sessions.js';
import { consumeToken, issueToken, peekToken } from './tokens.js';
import {
  createUser,
  findMembership,
  findUserByEmail,
  firstMembership,
  markEmailVerified,
  setPasswordHash,
  upsertMembership,
} from './users.js';

export interface SessionRouteDeps {
  db: Db;
  clock: Clock;
  rate: RateCounter;
  mail: LinkMail;
  /** The public URL is https: the cookie gets `Secure`. */
  secureCookies: () => boolean;
}

/** Sign-in throttles (per account, per address) over a 15-minute window. */
const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_PER_ACCOUNT = 10;
export const SIGN_IN_PER_IP = 50;
/** Reset emails per address per hour: more requests still answer 202 but send nothing. */
const RESETS_PER_HOUR = 5;

const WRONG_CREDENTIALS = 'Wrong email or password.';
const SIGN_IN_FIRST = 'Sign in first: this route needs a dashboard session (cookie quire_session).';
const EXPIRED = 'Your session has expired or is unknown. Sign in again.';
const NO_TEAM = 'This account is not a member of any team. Ask a team admin for an invitation.';
const BAD_TOKEN = 'This link is unknown, already used or expired. Ask for a new one.';

const ERRORS = { ...COMMON_ERRORS, 409: ErrorResponse };

/** The Session object of the contract. */
export function sessionView(session: LiveSession) {
  return {
    user: {
      id: session.user.id,
      email: session.user.email,
      email_verified: session.user.emailVerified,
      has_password: session.user.passwordHash !== null,
    },
    team: { id: session.team.id, name: session.team.name, plan: session.team.plan },
    role: session.role,
    mode: session.mode,
    csrf_token: csrfTokenFor(session.id),
    expires_at: session.expiresAt.toISOString(),
  };
}

/**
 * Session and auth routes of the dashboard (contract: Dashboard routes). Registered in the /v1 scope but
 * outside the bearer-key hook: they authenticate by the cookie themselves (or not at all, for sign-in).
 */
export function registerSessionRoutes(app: App, deps: SessionRouteDeps): void {
  const { db, clock } = deps;

  /** Creates a session (a fresh id: rotation on every sign-in), sets the cookie, returns the Session. */
  async function startSession(reply: FastifyReply, userId: string, teamId: string, mode?: KeyMode) {
    const id = await createSession(db, clock, { userId, teamId, ...(mode ? { mode } : {}) });
    const session = await loadSession(db, clock, id);
    if (!session) throw new Error('a session just created could not be loaded');
    // The cookie lives as long as the session may (7 days); the server ends it sooner when idle.
    setSessionCookie(reply, id, deps.secureCookies(), ABSOLUTE_MS);
    return sessionView(session);
  }

  /** The request's live session (CSRF checked on state-changing methods), else 401 `unauthenticated`. */
  async function currentSession(request: FastifyRequest): Promise<LiveSession> {
    const id = sessionIdOf(request);
    if (!id) throw new AppError('unauthenticated', SIGN_IN_FIRST);
    const session = await loadSession(db, clock, id);
    if (!session) throw new AppError('unauthenticated', EXPIRED);
    checkCsrf(request, csrfTokenFor(id));
    return session;
  }

  async function throttle(key: string, limit: number): Promise<void> {
    const hit = await deps.rate.hit(key, limit, THROTTLE_WINDOW_MS, clock.now().getTime());
    if (!hit.allowed) {
      throw new AppError(
        'rate_limited',
        `Too many sign-in attempts. Try again in ${hit.resetSeconds} seconds.`,
        undefined,
        { 'retry-after': String(hit.resetSeconds) },
      );
    }
  }

  async function teamToSignInto(userId: string): Promise<string> {
    const membership = await firstMembership(db, userId);
    if (!membership) throw new AppError('forbidden', NO_TEAM);
    return membership.teamId;
  }

  app.post(
    '/session',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'signIn',
        security: PUBLIC,
        summary: 'Sign in with email and password (sets the session cookie)',
        body: Bodies.signIn,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      // Both throttles count before any hashing: a flood costs no argon2 work.
      await throttle(`signin:ip:${ipBudgetKey(request.ip)}`, SIGN_IN_PER_IP);
      await throttle(`signin:account:${email.trim().toLowerCase()}`, SIGN_IN_PER_ACCOUNT);
      const user = await findUserByEmail(db, email);
      // An unknown email still costs one argon2 verification: same answer, similar timing.
      const ok = await passwordMatches(user?.passwordHash ?? null, password);
      if (!user || !ok) throw new AppError('invalid_credentials', WRONG_CREDENTIALS);
      return startSession(reply, user.id, await teamToSignInto(user.id));
    },
  );

  app.get(
    '/session',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'getSession',
        security: SESSION_ONLY,
        summary: 'The current session',
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request) => sessionView(await currentSession(request)),
  );

  app.delete(
    '/session',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'signOut',
        security: SESSION_ONLY,
        summary: 'Sign out (clears the cookie)',
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      const session = await currentSession(request);
      await deleteSession(db, session.idHash);
      clearSessionCookie(reply, deps.secureCookies());
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/session/mode',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'setSessionMode',
        security: SESSION_ONLY,
        summary: 'Switch the session between test and live mode',
        description:
          'Extension: the choice is remembered per person and team, and their next session starts in it. ' +
          'Before any choice a session starts in live mode for an owner and in test mode for other roles. ' +
          'In test mode template and brand-asset changes are refused with `forbidden`, in words about the mode.',
        body: Bodies.mode,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request) => {
      const session = await currentSession(request);
      await updateSession(db, session.idHash, { mode: request.body.mode });
      await rememberMode(db, session.user.id, session.team.id, request.body.mode);
      return sessionView({ ...session, mode: request.body.mode });
    },
  );

  app.put(
    '/session/team',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'setSessionTeam',
        security: SESSION_ONLY,
        summary: 'Switch the session to another team of the user',
        body: Bodies.team,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request) => {
      const session = await currentSession(request);
      const membership = await findMembership(db, session.user.id, request.body.team_id);
      if (!membership) {
        throw new AppError('forbidden', `You are not a member of team ${request.body.team_id}.`);
      }
      await updateSession(db, session.idHash, { teamId: membership.teamId });
      const moved = await loadSession(db, clock, session.id);
      if (!moved) throw new AppError('unauthenticated', EXPIRED);
      return sessionView(moved);
    },
  );

  app.post(
    '/auth/link',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'signInWithLink',
        security: PUBLIC,
        summary: 'Sign in with a single-use sign-in link (24 h)',
        body: Bodies.token,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const token = await consumeToken(db, clock, request.body.token, 'sign_in');
      if (!token?.userId) throw new AppError('invalid_token', BAD_TOKEN);
      const membership =
        (token.teamId && (await findMembership(db, token.userId, token.teamId))) ||
        (await firstMembership(db, token.userId));
      if (!membership) throw new AppError('forbidden', NO_TEAM);
      const view = await startSession(reply, token.userId, membership.teamId);
      // The link proves the operator's choice of address, not its owner's inbox: ask once for proof.
      if (!view.user.email_verified) await sendVerification(deps, token.userId, view.user.email);
      return view;
    },
  );

  app.put(
    '/auth/password',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'setPassword',
        security: SESSION_ONLY,
        summary: 'Set or change the password (rotates the session id)',
        body: Bodies.password,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const session = await currentSession(request);
      const { password, current_password } = request.body;
      if (session.user.passwordHash) {
        if (current_password === undefined) {
          throw new AppError(
            'invalid_request',
            'Send current_password: this account already has a password.',
            {
              field: 'current_password',
            },
          );
        }
        if (!(await passwordMatches(session.user.passwordHash, current_password))) {
          throw new AppError('invalid_credentials', 'The current password is wrong.');
        }
      }
      checkPasswordRule(password);
      await setPasswordHash(db, session.user.id, await hashPassword(password));
      // Every other session of the user ends; this one continues under a new id.
      await deleteUserSessions(db, session.user.id);
      return startSession(reply, session.user.id, session.team.id, session.mode);
    },
  );

  app.post(
    '/auth/password-reset',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'requestPasswordReset',
        security: PUBLIC,
        summary: 'Email a password reset link (answers 202 whether or not the account exists)',
        body: Bodies.reset,
        response: { 202: EmptySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const user = await findUserByEmail(db, request.body.email);
      const hit = await deps.rate.hit(
        `reset:${request.body.email.trim().toLowerCase()}`,
        RESETS_PER_HOUR,
        60 * 60 * 1000,
        clock.now().getTime(),
      );
      if (user && hit.allowed) {
        const { token } = await issueToken(db, clock, { purpose: 'reset', userId: user.id });
        // Not awaited: the answer must not take longer for an existing account.
        void sendLinkEmail(deps.mail, { to: user.email, kind: 'reset', token }).catch((err: unknown) =>
          deps.mail.log.warn({ err }, 'password reset email failed'),
        );
      }
      return reply.code(202).send({});
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'confirmPasswordReset',
        security: PUBLIC,
        summary: 'Choose a new password with a reset link (signs in)',
        body: Bodies.tokenPassword,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      checkPasswordRule(request.body.password);
      const token = await consumeToken(db, clock, request.body.token, 'reset');
      if (!token?.userId) throw new AppError('invalid_token', BAD_TOKEN);
      await setPasswordHash(db, token.userId, await hashPassword(request.body.password));
      // The emailed link proves the inbox; sessions that may have been someone else's end.
      await markEmailVerified(db, token.userId);
      await deleteUserSessions(db, token.userId);
      return startSession(reply, token.userId, await teamToSignInto(token.userId));
    },
  );

  app.post(
    '/auth/verify-email',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'verifyEmail',
        security: PUBLIC,
        summary: 'Confirm the email address with a verification link',
        body: Bodies.token,
        response: { 200: VerifiedSchema, ...ERRORS },
      },
    },
    async (request) => {
      const token = await consumeToken(db, clock, request.body.token, 'verify');
      if (!token?.userId) throw new AppError('invalid_token', BAD_TOKEN);
      await markEmailVerified(db, token.userId);
      return { email_verified: true as const };
    },
  );

  app.post(
    '/auth/invitation',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'acceptInvitationAsNewUser',
        security: PUBLIC,
        summary: 'Accept an invitation by creating the account (signs in)',
        body: Bodies.tokenPassword,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const invite = await peekToken(db, clock, request.body.token, 'invite');
      if (!invite?.email || !invite.teamId || !invite.role) throw new AppError('invalid_token', BAD_TOKEN);
      if (await findUserByEmail(db, invite.email)) {
        throw new AppError(
          'email_taken',
          `${invite.email} already has an account: sign in, then accept with POST /v1/auth/invitation/accept.`,
        );
      }
      checkPasswordRule(request.body.password);
      if (!(await consumeToken(db, clock, request.body.token, 'invite'))) {
        throw new AppError('invalid_token', BAD_TOKEN);
      }
      const user = await createUser(db, clock, {
        email: invite.email,
        passwordHash: await hashPassword(request.body.password),
        // The invitation reached this inbox.
        emailVerified: true,
      });
      await upsertMembership(db, clock, { teamId: invite.teamId, userId: user.id, role: invite.role });
      return startSession(reply, user.id, invite.teamId);
    },
  );

  app.post(
    '/auth/invitation/accept',
    {
      // Session answers carry the CSRF token and links: never cached (errors included).
      onSend: noStoreOnSend,
      schema: {
        tags: TAGS,
        operationId: 'acceptInvitation',
        security: SESSION_ONLY,
        summary: 'Accept an invitation while signed in (switches the session to that team)',
        body: Bodies.token,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request) => {
      const session = await currentSession(request);
      const invite = await consumeToken(db, clock, request.body.token, 'invite');
      if (!invite?.teamId || !invite.role) throw new AppError('invalid_token', BAD_TOKEN);
      // Already a member: the invitation changes nothing (a role is changed by an admin, not a link).
      if (!(await findMembership(db, session.user.id, invite.teamId))) {
        await upsertMembership(db, clock, {
          teamId: invite.teamId,
          userId: session.user.id,
          role: invite.role,
        });
      }
      await updateSession(db, session.idHash, { teamId: invite.teamId });
      const moved = await loadSession(db, clock, session.id);
      if (!moved) throw new AppError('unauthenticated', EXPIRED);
      return sessionView(moved);
    },
  );
}

/** Emails a verification link to a user whose address is not verified yet. */
async function sendVerification(deps: SessionRouteDeps, userId: string, email: string): Promise<void> {
  const { token } = await issueToken(deps.db, deps.clock, { purpose: 'verify', userId });
  void sendLinkEmail(deps.mail, { to: email, kind: 'verify', token }).catch((err: unknown) =>
    deps.mail.log.warn({ err }, 'verification email failed'),
  );
}
