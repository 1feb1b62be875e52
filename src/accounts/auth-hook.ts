import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { type RateCounter, spendBudget, type WindowHit } from '../shared/rate-counter.js';
import type { Db } from '../storage/index.js';
import type { KeyMode } from './api-keys.js';
import type { AuthContext, Role, SessionActor } from './auth-context.js';
import { authenticate } from './authenticate.js';
import type { Plan, PlanId } from './plans.js';
import type { Team } from './teams.js';

/** A live dashboard session, as the users capability resolves it from the request's cookie. */
export interface ResolvedSession {
  team: Team;
  actor: SessionActor;
  role: Role;
  mode: KeyMode;
  csrfToken: string;
}

/**
 * The port through which the hook accepts dashboard sessions (implemented by src/users, which accounts must
 * not import). `null`: the request carries no session cookie; `'unknown'`: it names no live session.
 */
export interface SessionLookup {
  resolve(request: FastifyRequest): Promise<ResolvedSession | 'unknown' | null>;
}

export interface AuthHookDeps {
  db: Db;
  clock: Clock;
  plans: Record<PlanId, Plan>;
  rate: RateCounter;
  /** Test keys' requests per minute per team (QUIRE_TEST_KEY_RATE_PER_MIN; spec: 20). */
  testKeyRatePerMin: number;
  sessions?: SessionLookup;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const CSRF_MESSAGE =
  'Missing or wrong CSRF token. Send the x-csrf-token header the session routes return.';

/**
 * A state-changing request made with the session cookie must echo the session's CSRF token in
 * `x-csrf-token` (a cross-site form can send the cookie but cannot set a header).
 */
export function checkCsrf(request: FastifyRequest, csrfToken: string): void {
  if (!UNSAFE_METHODS.has(request.method)) return;
  const sent = request.headers['x-csrf-token'];
  if (typeof sent !== 'string' || !sameText(sent, csrfToken)) throw new AppError('forbidden', CSRF_MESSAGE);
}

/** Constant-time equality of two strings of any length (compares their SHA-256 digests). */
export function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Authenticates the bearer key (or, without one, the dashboard session cookie), refuses suspended teams,
 * then counts the request against the team's per-minute budget for the caller's mode (spec: Authentication;
 * Limits, requests per minute). A bearer header wins when both are sent.
 */
export function createAuthHook(deps: AuthHookDeps): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await authenticateRequest(deps, request);
    if (auth.team.suspended) throw new AppError('forbidden', 'This team is suspended.');
    request.auth = auth;
    const { key, limit } = requestBudget(auth, deps.testKeyRatePerMin);
    const budget = {
      key,
      limit,
      nowMs: deps.clock.now().getTime(),
      message: budgetMessage(auth, limit),
    };
    setRateLimitHeaders(
      reply,
      await spendBudget(deps.rate, budget, (hit) => setRateLimitHeaders(reply, hit)),
    );
  };
}

/**
 * The per-minute budget a request spends. Keys: the team's budget for the key's mode (test keys 20 unless the
 * operator raised it). Dashboard sessions, whatever their mode: a budget of their own at the plan's rate, so
 * a page that loads lists, thumbnails and previews is not held to the test keys' budget and does not eat the
 * API clients' budget.
 */
function requestBudget(auth: AuthContext, testKeyRatePerMin: number): { key: string; limit: number } {
  if (auth.session) return { key: `team:${auth.team.id}:dashboard`, limit: auth.plan.rate_limit_per_min };
  const limit = auth.mode === 'test' ? testKeyRatePerMin : auth.plan.rate_limit_per_min;
  return { key: `team:${auth.team.id}:${auth.mode}`, limit };
}

/**
 * A test key's refusal names the setting that raises it: a self-hosted CI running its suite with a test key
 * meets this budget first, and only its operator can change it.
 */
function budgetMessage(auth: AuthContext, limit: number): string {
  const base = `Rate limit of ${limit} requests per minute reached.`;
  if (auth.session || auth.mode !== 'test') return base;
  return `${base} Test keys get ${limit} requests per minute per team; on your own server, QUIRE_TEST_KEY_RATE_PER_MIN raises it (or use a live key).`;
}

async function authenticateRequest(deps: AuthHookDeps, request: FastifyRequest): Promise<AuthContext> {
  const header = request.headers.authorization;
  if (!header && deps.sessions) {
    const session = await deps.sessions.resolve(request);
    if (session === 'unknown') {
      throw new AppError('unauthenticated', 'Your session has expired or is unknown. Sign in again.');
    }
    if (session) {
      checkCsrf(request, session.csrfToken);
      return {
        team: session.team,
        key: null,
        session: session.actor,
        role: session.role,
        plan: deps.plans[session.team.plan],
        mode: session.mode,
      };
    }
  }
  const outcome = await authenticate(deps.db, header);
  if (!outcome.ok) throw new AppError('invalid_api_key', messageFor(outcome.reason));
  const plan = deps.plans[outcome.team.plan];
  return {
    team: outcome.team,
    key: outcome.key,
    session: null,
    role: outcome.key.role,
    plan,
    mode: outcome.key.mode,
  };
}

export function setRateLimitHeaders(reply: FastifyReply, hit: WindowHit): void {
  reply.header('x-ratelimit-limit', String(hit.limit));
  reply.header('x-ratelimit-remaining', String(hit.remaining));
  reply.header('x-ratelimit-reset', String(hit.resetSeconds));
}

function messageFor(reason: 'missing' | 'malformed' | 'unknown' | 'revoked'): string {
  switch (reason) {
    case 'missing':
      return 'Missing Authorization header. Send "Authorization: Bearer <API key>".';
    case 'malformed':
      return 'Malformed Authorization header or API key. Send "Authorization: Bearer <API key>".';
    case 'unknown':
      return 'Unknown API key.';
    case 'revoked':
      return 'This API key has been revoked.';
    default: {
      const never: never = reason;
      return never;
    }
  }
}
