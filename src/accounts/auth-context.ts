import type { FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.js';
import type { KeyMode } from './api-keys.js';
import type { Plan } from './plans.js';
import type { ApiKey, Team } from './teams.js';

/** A person's role in a team (dashboard contract: Roles). */
export type Role = 'owner' | 'admin' | 'member';

export const ROLES: readonly Role[] = ['owner', 'admin', 'member'];

/** The signed-in person behind a session-authenticated request. */
export interface SessionActor {
  userId: string;
  email: string;
  /** SHA-256 of the session id (the id itself is only in the cookie). */
  sessionHash: string;
}

/**
 * Who is calling: set by the authentication hook on every authenticated route. Exactly one of `key` (bearer)
 * and `session` (dashboard cookie) is set; both act alike for `mode`, limits and team.
 */
export interface AuthContext {
  team: Team;
  key: ApiKey | null;
  session: SessionActor | null;
  /** A session's membership role; a bearer key acts as `admin` (it may manage keys, webhooks, members). */
  role: Role;
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

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

/** True when `role` is at least `needed` (owner > admin > member). */
export function hasRole(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/** Refuses with 403 `forbidden` naming the role needed; returns the caller otherwise. */
export function requireRole(request: FastifyRequest, needed: Exclude<Role, 'member'>): AuthContext {
  const auth = authOf(request);
  if (!hasRole(auth.role, needed)) {
    const who = needed === 'owner' ? 'the owner role' : 'the admin or owner role';
    throw new AppError('forbidden', `This needs ${who} in the team; your role is ${auth.role}.`);
  }
  return auth;
}
