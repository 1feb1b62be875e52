import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  findTeam,
  type KeyMode,
  type ResolvedSession,
  type Role,
  type SessionLookup,
  type Team,
} from '../accounts/index.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { type Db, deleteOlderThan } from '../storage/index.js';
import { findMembership, findUserById, theMembership, type User } from './users.js';

export const SESSION_COOKIE = 'quire_session';
/** Contract: idle expiry 12 h (sliding), absolute expiry 7 days. */
export const IDLE_MS = 12 * 60 * 60 * 1000;
export const ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** Last-use writes are skipped within this interval: a busy dashboard does not write on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

/** 256 random bits, URL-safe: session ids and emailed tokens. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Session ids and tokens are long random values: a fast hash is safe and only it is stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * The session's CSRF token, derived from its id: a page can only know it if it was given it by a session
 * route (same-origin JSON), never from the cookie, which scripts cannot read (HttpOnly).
 */
export function csrfTokenFor(sessionId: string): string {
  return createHash('sha256').update(`quire csrf v1\n${sessionId}`).digest('base64url');
}

/** A session loaded with everything a request needs. */
export interface LiveSession {
  id: string;
  idHash: string;
  user: User;
  team: Team;
  role: Role;
  mode: KeyMode;
  expiresAt: Date;
}

/**
 * The mode a new session starts in: the one the person last chose in the team, else live for an owner
 * (who set the team up and came to build templates) and test for others.
 */
export async function startingMode(db: Db, userId: string, teamId: string): Promise<KeyMode> {
  const row = await db
    .selectFrom('memberships')
    .select(['role', 'last_mode'])
    .where(theMembership(userId, teamId))
    .executeTakeFirst();
  if (row?.last_mode === 'live' || row?.last_mode === 'test') return row.last_mode;
  return row?.role === 'owner' ? 'live' : 'test';
}

/** Remembers the mode a person chose in a team, for their next session. */
export async function rememberMode(db: Db, userId: string, teamId: string, mode: KeyMode): Promise<void> {
  await db.updateTable('memberships').set({ last_mode: mode }).where(theMembership(userId, teamId)).execute();
}

export async function createSession(
  db: Db,
  clock: Clock,
  input: { userId: string; teamId: string; mode?: KeyMode },
): Promise<string> {
  const id = newSecret();
  const now = clock.now().toISOString();
  await db
    .insertInto('sessions')
    .values({
      id_hash: hashSecret(id),
      user_id: input.userId,
      team_id: input.teamId,
      mode: input.mode ?? (await startingMode(db, input.userId, input.teamId)),
      created_at: now,
      last_seen_at: now,
    })
    .execute();
  // The owner's link is printed at every start until this is set (cli/serve.ts).
  await db
    .updateTable('users')
    .set({ signed_in_at: now })
    .where('id', '=', input.userId)
    .where('signed_in_at', 'is', null)
    .execute();
  return id;
}

/** When a session ends: 12 idle hours after its last use, at most 7 days after it began. */
export function expiryOf(row: { created_at: string; last_seen_at: string }): Date {
  const idle = Date.parse(row.last_seen_at) + IDLE_MS;
  const absolute = Date.parse(row.created_at) + ABSOLUTE_MS;
  return new Date(Math.min(idle, absolute));
}

/**
 * The live session with this id, its last use moved to now; null when unknown, expired (then deleted), or
 * when its user, team or membership no longer exists.
 */
export async function loadSession(db: Db, clock: Clock, id: string): Promise<LiveSession | null> {
  const idHash = hashSecret(id);
  const row = await db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  if (!row) return null;
  const now = clock.now();
  if (now.getTime() >= expiryOf(row).getTime()) {
    await deleteSession(db, idHash);
    return null;
  }
  const [user, team, membership] = await Promise.all([
    findUserById(db, row.user_id),
    findTeam(db, row.team_id),
    findMembership(db, row.user_id, row.team_id),
  ]);
  if (!user || !team || !membership) return null;
  let lastSeen = row.last_seen_at;
  if (now.getTime() - Date.parse(lastSeen) >= TOUCH_EVERY_MS) {
    lastSeen = now.toISOString();
    await db.updateTable('sessions').set({ last_seen_at: lastSeen }).where('id_hash', '=', idHash).execute();
  }
  return {
    id,
    idHash,
    user,
    team,
    role: membership.role,
    mode: row.mode,
    expiresAt: expiryOf({ created_at: row.created_at, last_seen_at: lastSeen }),
  };
}

export async function updateSession(
  db: Db,
  idHash: string,
  changes: { mode?: KeyMode; teamId?: string },
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({
      ...(changes.mode ? { mode: changes.mode } : {}),
      ...(changes.teamId ? { team_id: changes.teamId } : {}),
    })
    .where('id_hash', '=', idHash)
    .execute();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Signs the user out everywhere (password change or reset). */
export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/**
 * Over https the cookie is `__Host-quire_session`: browsers keep a `__Host-` cookie only when it is Secure,
 * has Path=/ and no Domain, so a page on a sibling subdomain cannot plant or overwrite it (session fixation).
 * Plain http keeps the contract's `quire_session`; each scheme reads only its own name.
 */
export const HTTPS_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** Whether a request is served over https (then the cookie is `__Host-` and Secure). */
export type HttpsTest = (request: FastifyRequest) => boolean;

/**
 * https when the request came over TLS or, behind a trusted proxy (QUIRE_TRUST_PROXY), its last
 * X-Forwarded-Proto says https (Fastify's request.protocol), or when QUIRE_PUBLIC_URL is https: browsers then
 * reach Quire by https even if an untrusted proxy's hop arrives as plain http.
 */
export function httpsTest(publicUrl: () => string): HttpsTest {
  return (request) => request.protocol === 'https' || publicUrl().startsWith('https:');
}

export function sessionCookieName(https: boolean): string {
  return https ? HTTPS_SESSION_COOKIE : SESSION_COOKIE;
}

/**
 * The session id the request's cookie carries, if any. Several cookies of the name (one may have been
 * planted for a parent domain or another path) are refused rather than one of them guessed at.
 */
export function sessionIdOf(request: FastifyRequest, https: boolean): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const name = sessionCookieName(https);
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  if (values.length > 1) {
    throw new AppError(
      'invalid_request',
      `The request carries ${values.length} ${name} cookies; only one can be a session. Clear this site's cookies (a cookie for a parent domain or another path may have been set by another site), then sign in again.`,
      { field: 'cookie' },
    );
  }
  const value = values[0];
  return value ? value : null;
}

/**
 * Cookie attributes (contract): HttpOnly, SameSite=Lax, Path=/; over https also Secure, under the
 * `__Host-` name.
 */
export function setSessionCookie(reply: FastifyReply, id: string, https: boolean, maxAgeMs: number): void {
  const attributes = [
    `${sessionCookieName(https)}=${id}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
  ];
  if (https) attributes.push('Secure');
  reply.header('set-cookie', attributes.join('; '));
}

export function clearSessionCookie(reply: FastifyReply, https: boolean): void {
  setSessionCookie(reply, '', https, 0);
}

/** The auth hook's port: resolves the cookie to a team, role and mode like a key's. */
export function createSessionLookup(db: Db, clock: Clock, https: HttpsTest): SessionLookup {
  return {
    async resolve(request): Promise<ResolvedSession | 'unknown' | null> {
      const id = sessionIdOf(request, https(request));
      if (!id) return null;
      const session = await loadSession(db, clock, id);
      if (!session) return 'unknown';
      return {
        team: session.team,
        actor: { userId: session.user.id, email: session.user.email, sessionHash: session.idHash },
        role: session.role,
        mode: session.mode,
        csrfToken: csrfTokenFor(id),
      };
    },
  };
}

/**
 * Retention sweep: sessions past their idle or absolute expiry, and tokens expired for a day (kept that long
 * so a late click still reads "expired" rather than vanishing mid-flow). Returns the rows deleted.
 */
export async function sweepUserRows(db: Db, now: Date): Promise<number> {
  const idleCutoff = new Date(now.getTime() - IDLE_MS).toISOString();
  const absoluteCutoff = new Date(now.getTime() - ABSOLUTE_MS).toISOString();
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('last_seen_at', '<', idleCutoff), eb('created_at', '<', absoluteCutoff)]))
    .executeTakeFirst();
  const tokens = await deleteOlderThan(db.deleteFrom('user_tokens'), 'expires_at', 24 * 60 * 60 * 1000, now);
  return Number(sessions.numDeletedRows) + tokens;
}
