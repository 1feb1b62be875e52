import type { FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.js';
import type { KeyMode } from './api-keys.js';
import type { Plan } from './plans.js';
import type { ApiKey, Creator, Team } from './teams.js';

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
  /** A session's membership role, or a bearer key's role (`admin` or `member`; a key is never `owner`). */
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

/** The person or key behind a request, recorded as the creator of what it makes (keys, invitations). */
export function creatorOfRequest(auth: AuthContext): Creator {
  if (auth.session) return { kind: 'user', id: auth.session.userId };
  return auth.key ? { kind: 'key', id: auth.key.id } : null;
}

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

/** True when `role` is at least `needed` (owner > admin > member). */
export function hasRole(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/** Refuses with 403 `forbidden` naming the role needed; returns the caller otherwise. */
export function requireRole(request: FastifyRequest, needed: Exclude<Role, 'member'>): AuthContext {
  const auth = authOf(request);
  if (hasRole(auth.role, needed)) return auth;
  if (auth.key && needed === 'owner') {
    throw new AppError(
      'forbidden',
      'This needs an owner signed into the dashboard; an API key never has the owner role.',
    );
  }
  if (auth.key) {
    throw new AppError(
      'forbidden',
      `This needs an admin live key or an admin's dashboard session; this key's role is ${auth.role}.`,
    );
  }
  const who = needed === 'owner' ? 'the owner role' : 'the admin or owner role';
  throw new AppError('forbidden', `This needs ${who} in the team; your role is ${auth.role}.`);
}

/**
 * Key, member and invitation management: an admin live key, or a session with the admin or owner
 * role. A test key is for trying things out and CI, so it never manages, whatever its role. `action` says
 * what was refused ("manage API keys").
 */
export function requireManager(request: FastifyRequest, action: string): AuthContext {
  const auth = authOf(request);
  if (auth.key?.mode === 'test') {
    throw new AppError(
      'forbidden',
      `A test key cannot ${action}. Use an admin live key or an admin's dashboard session.`,
    );
  }
  return requireRole(request, 'admin');
}

/**
 * Webhook endpoints: any key manages the endpoints of its own mode (spec: Authentication 4); a dashboard
 * session needs the admin or owner role.
 */
export function requireSessionRole(request: FastifyRequest, needed: Exclude<Role, 'member'>): AuthContext {
  const auth = authOf(request);
  return auth.key ? auth : requireRole(request, needed);
}
