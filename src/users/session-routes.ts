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
import { checkInvitee, creatorMayStillInvite } from './invitations.js';
import { checkPasswordRule, hashPassword, needsRehash, passwordMatches } from './passwords.js';
import { Bodies, EmptySchema, PUBLIC, SESSION_ONLY, SessionSchema, TAGS, VerifiedSchema } from './schemas.js';
import {
  ABSOLUTE_MS,
  clearSessionCookie,
  createSession,
  csrfTokenFor,
  deleteSession,
  deleteUserSessions,
  type HttpsTest,
  type LiveSession,
  loadSession,
  rememberMode,
  sessionIdOf,
  setSessionCookie,
  updateSession,
} from './sessions.js';
import type { PasswordThrottle } from './throttle.js';
import { consumeToken, issueToken, peekToken, revokeUserTokens } from './tokens.js';
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
  /** Failures slow later password checks down, per account and per address (throttle.ts). */
  throttle: PasswordThrottle;
  /** The request is served over https: the cookie is `__Host-quire_session` and Secure. */
  https: HttpsTest;
}

/**
 * A ceiling on sign-in attempts per address over 15 minutes, right or wrong: the failure delays
 * (throttle.ts) are read before they are counted, so a burst of parallel attempts would otherwise slip
 * through them. Counted atomically by the rate counter; it refuses only that address, never an account.
 */
const ADDRESS_WINDOW_MS = 15 * 60 * 1000;
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
  async function startSession(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    teamId: string,
    mode?: KeyMode,
  ) {
    const id = await createSession(db, clock, { userId, teamId, ...(mode ? { mode } : {}) });
    const session = await loadSession(db, clock, id);
    if (!session) throw new Error('a session just created could not be loaded');
    // The cookie lives as long as the session may (7 days); the server ends it sooner when idle.
    setSessionCookie(reply, id, deps.https(request), ABSOLUTE_MS);
    return sessionView(session);
  }

  /** The request's live session (CSRF checked on state-changing methods), else 401 `unauthenticated`. */
  async function currentSession(request: FastifyRequest): Promise<LiveSession> {
    const id = sessionIdOf(request, deps.https(request));
    if (!id) throw new AppError('unauthenticated', SIGN_IN_FIRST);
    const session = await loadSession(db, clock, id);
    if (!session) throw new AppError('unauthenticated', EXPIRED);
    checkCsrf(request, csrfTokenFor(id));
    return session;
  }

  async function addressCeiling(request: FastifyRequest): Promise<void> {
    const hit = await deps.rate.hit(
      `signin:ip:${ipBudgetKey(request.ip)}`,
      SIGN_IN_PER_IP,
      ADDRESS_WINDOW_MS,
      clock.now().getTime(),
    );
    if (!hit.allowed) {
      throw new AppError(
        'rate_limited',
        `Too many sign-in attempts. Try again in ${hit.resetSeconds} seconds.`,
        undefined,
        { 'retry-after': String(hit.resetSeconds) },
      );
    }
  }

  /**
   * A new password ends what the old one may have let someone else hold: every session of the user
   * (the caller starts a fresh one) and every unused reset and sign-in link.
   */
  async function setPassword(userId: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await db.transaction().execute(async (trx) => {
      await setPasswordHash(trx, userId, passwordHash);
      await revokeUserTokens(trx, clock, userId, ['reset', 'sign_in']);
      await deleteUserSessions(trx, userId);
    });
  }

  /** A new reset link supersedes the user's previous ones, then goes out by email. */
  async function sendReset(userId: string, email: string): Promise<void> {
    const token = await db.transaction().execute(async (trx) => {
      await revokeUserTokens(trx, clock, userId, ['reset']);
      return (await issueToken(trx, clock, { purpose: 'reset', userId })).token;
    });
    await sendLinkEmail(deps.mail, { to: email, kind: 'reset', token });
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
        description:
          'The cookie is quire_session over http and __Host-quire_session (Secure) over https. Wrong passwords slow later attempts: after 10 from one address it is refused (429, Retry-After 1 s, 2 s, 4 s … up to 15 min after its last failure); after 10 on one account every attempt on it is answered up to 5 s later. No account is locked.',
        body: Bodies.signIn,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
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
      clearSessionCookie(reply, deps.https(request));
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
      const view = await startSession(request, reply, token.userId, membership.teamId);
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
        description:
          'Ends every other session of the user and every unused reset and sign-in link. A wrong current_password counts against the same throttle as a sign-in.',
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
        // Throttled like a sign-in: a stolen session must not become a way to guess the password.
        const attempt = { account: session.user.email, address: request.ip };
        await deps.throttle.before(attempt);
        if (!(await passwordMatches(session.user.passwordHash, current_password))) {
          await deps.throttle.failed(attempt);
          throw new AppError('invalid_credentials', 'The current password is wrong.');
        }
      }
      checkPasswordRule(password);
      await setPassword(session.user.id, password);
      // This session continues under a new id.
      return startSession(request, reply, session.user.id, session.team.id, session.mode);
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
        description: 'The new link replaces any earlier one of the account.',
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
      // Not awaited: issuing the token and sending the mail happen after the answer, so an existing
      // account's answer does the same work (one lookup, one count) and takes as long as an unknown one's.
      if (user && hit.allowed) {
        void sendReset(user.id, user.email).catch((err: unknown) =>
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
        description: 'Ends every other session of the user and every unused reset and sign-in link.',
        body: Bodies.tokenPassword,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      checkPasswordRule(request.body.password);
      const token = await consumeToken(db, clock, request.body.token, 'reset');
      if (!token?.userId) throw new AppError('invalid_token', BAD_TOKEN);
      await setPassword(token.userId, request.body.password);
      // The emailed link proves the inbox.
      await markEmailVerified(db, token.userId);
      return startSession(request, reply, token.userId, await teamToSignInto(token.userId));
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
      if (!invite?.email || !invite.teamId || !invite.role || !(await creatorMayStillInvite(db, invite))) {
        throw new AppError('invalid_token', BAD_TOKEN);
      }
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
      return startSession(request, reply, user.id, invite.teamId);
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
        description:
          'Only the invited address may accept: a session of another email gets 403 forbidden and the invitation stays open.',
        body: Bodies.token,
        response: { 200: SessionSchema, ...ERRORS },
      },
    },
    async (request) => {
      const session = await currentSession(request);
      const open = await peekToken(db, clock, request.body.token, 'invite');
      if (!open || !(await creatorMayStillInvite(db, open))) throw new AppError('invalid_token', BAD_TOKEN);
      // Checked before the token is used up, so the invited person can still accept it.
      checkInvitee(open, session.user.email);
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
