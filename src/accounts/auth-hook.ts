import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { type RateCounter, spendBudget, type WindowHit } from '../shared/rate-counter.js';
import type { Db } from '../storage/db.js';
import { authenticate } from './authenticate.js';
import { type Plan, type PlanId, TEST_KEY_RATE_LIMIT } from './plans.js';
import './auth-context.js';

export interface AuthHookDeps {
  db: Db;
  clock: Clock;
  plans: Record<PlanId, Plan>;
  rate: RateCounter;
}

/**
 * Authenticates the bearer key, refuses suspended teams, then counts the request against the team's
 * per-minute budget for the key's mode (spec: Authentication; Limits, requests per minute).
 */
export function createAuthHook(deps: AuthHookDeps): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const outcome = await authenticate(deps.db, request.headers.authorization);
    if (!outcome.ok) {
      throw new AppError('invalid_api_key', messageFor(outcome.reason));
    }
    if (outcome.team.suspended) throw new AppError('forbidden', 'This team is suspended.');
    const plan = deps.plans[outcome.team.plan];
    const mode = outcome.key.mode;
    request.auth = { team: outcome.team, key: outcome.key, plan, mode };
    const limit = mode === 'test' ? TEST_KEY_RATE_LIMIT : plan.rate_limit_per_min;
    const budget = {
      key: `team:${outcome.team.id}:${mode}`,
      limit,
      nowMs: deps.clock.now().getTime(),
      message: `Rate limit of ${limit} requests per minute reached.`,
    };
    setRateLimitHeaders(
      reply,
      await spendBudget(deps.rate, budget, (hit) => setRateLimitHeaders(reply, hit)),
    );
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
