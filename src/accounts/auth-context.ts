import type { FastifyRequest } from 'fastify';
import type { KeyMode } from './api-keys.js';
import type { Plan } from './plans.js';
import type { ApiKey, Team } from './teams.js';

/** Who is calling: set by the authentication hook on every authenticated route. */
export interface AuthContext {
  team: Team;
  key: ApiKey;
  plan: Plan;
  mode: KeyMode;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/** The caller of an authenticated route (the hook guarantees it is set). */
export function authOf(request: FastifyRequest): AuthContext {
  const auth = request.auth;
  if (!auth) throw new Error('authOf() used on a route without the authentication hook');
  return auth;
}
