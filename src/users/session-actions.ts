import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkCsrf, type KeyMode } from '../accounts/index.js';
import { ipBudgetKey } from '../http/client-address.js';
import { COMMON_ERRORS, ErrorResponse } from '../http/schemas.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { RateCounter } from '../shared/rate-counter.js';
import type { Db } from '../storage/index.js';
import { type LinkMail, sendLinkEmail } from './emails.js';
import { hashPassword } from './passwords.js';
import {
  ABSOLUTE_MS,
  createSession,
  csrfTokenFor,
  deleteUserSessions,
  type HttpsTest,
  type LiveSession,
  loadSession,
  sessionIdOf,
  setSessionCookie,
} from './sessions.js';
import type { PasswordThrottle } from './throttle.js';
import { issueToken, revokeUserTokens } from './tokens.js';
import { firstMembership, setPasswordHash } from './users.js';

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
const SIGN_IN_PER_IP = 50;
/** Reset emails per address per hour: more requests still answer 202 but send nothing. */
export const RESETS_PER_HOUR = 5;

export const WRONG_CREDENTIALS = 'Wrong email or password.';
const SIGN_IN_FIRST = 'Sign in first: this route needs a dashboard session (cookie quire_session).';
export const EXPIRED = 'Your session has expired or is unknown. Sign in again.';
export const NO_TEAM = 'This account is not a member of any team. Ask a team admin for an invitation.';
export const BAD_TOKEN = 'This link is unknown, already used or expired. Ask for a new one.';

export const ERRORS = { ...COMMON_ERRORS, 409: ErrorResponse };

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

/** What the session and auth routes share: starting and reading a session, the sign-in ceiling, new passwords. */
export type SessionActions = ReturnType<typeof sessionActions>;

export function sessionActions(deps: SessionRouteDeps) {
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

  return { startSession, currentSession, addressCeiling, setPassword, sendReset, teamToSignInto };
}

/** Emails a verification link to a user whose address is not verified yet. */
export async function sendVerification(deps: SessionRouteDeps, userId: string, email: string): Promise<void> {
  const { token } = await issueToken(deps.db, deps.clock, { purpose: 'verify', userId });
  void sendLinkEmail(deps.mail, { to: email, kind: 'verify', token }).catch((err: unknown) =>
    deps.mail.log.warn({ err }, 'verification email failed'),
  );
}
