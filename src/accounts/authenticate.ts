import type { Db } from '../storage/index.js';
import { hashApiKey, isWellFormedKey, sameDigest } from './api-keys.js';
import { type ApiKey, creatorOf, type Team, toTeam } from './teams.js';

export type AuthOutcome =
  | { ok: true; team: Team; key: ApiKey }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' };

const BEARER = /^Bearer ([^\s]+)$/;

/** Resolves an Authorization header to its team and key (spec: Authentication 1–2). */
export async function authenticate(db: Db, header: string | undefined): Promise<AuthOutcome> {
  if (!header) return { ok: false, reason: 'missing' };
  const match = BEARER.exec(header);
  const key = match?.[1];
  if (!key || !isWellFormedKey(key)) return { ok: false, reason: 'malformed' };
  const hash = hashApiKey(key);
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('teams', 'teams.id', 'api_keys.team_id')
    .select([
      'api_keys.id as key_id',
      'api_keys.name as key_name',
      'api_keys.mode',
      'api_keys.role',
      'api_keys.created_by_user_id',
      'api_keys.created_by_key_id',
      'api_keys.prefix',
      'api_keys.key_hash',
      'api_keys.created_at as key_created_at',
      'api_keys.revoked_at',
      // The team's columns under their own names: the row is a team row as toTeam reads it.
      'teams.id',
      'teams.name',
      'teams.plan',
      'teams.email',
      'teams.email_verified',
      'teams.suspended',
      'teams.created_at',
    ])
    .where('api_keys.key_hash', '=', hash)
    .executeTakeFirst();
  // The lookup is by hash; the constant-time compare guards against any index-level shortcut.
  if (!row || !sameDigest(row.key_hash, hash)) return { ok: false, reason: 'unknown' };
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  return {
    ok: true,
    team: toTeam(row),
    key: {
      id: row.key_id,
      teamId: row.id,
      name: row.key_name,
      mode: row.mode,
      role: row.role,
      prefix: row.prefix,
      createdAt: row.key_created_at,
      revokedAt: row.revoked_at,
      createdBy: creatorOf(row),
    },
  };
}
