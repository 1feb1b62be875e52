import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { type ApiKey, creatorOf } from './teams.js';

/** Every key of the team, revoked ones included, newest first. */
export async function teamKeys(db: Db, teamId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select([
      'id',
      'team_id',
      'name',
      'mode',
      'role',
      'prefix',
      'created_at',
      'revoked_at',
      'created_by_user_id',
      'created_by_key_id',
    ])
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    teamId: r.team_id,
    name: r.name,
    mode: r.mode,
    role: r.role,
    prefix: r.prefix,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    createdBy: creatorOf(r),
  }));
}

/**
 * The unrevoked keys among `keys` that the user made, directly or through a key they made (an admin key
 * makes keys too, so revoking only the user's own would leave what those made working). A revoked key
 * still passes its lineage on: what it made before its revocation keeps working.
 */
export function keysMadeBy(keys: readonly ApiKey[], userId: string): ApiKey[] {
  const theirs = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const key of keys) {
      if (theirs.has(key.id) || !key.createdBy) continue;
      const { kind, id } = key.createdBy;
      if ((kind === 'user' && id === userId) || (kind === 'key' && theirs.has(id))) {
        theirs.add(key.id);
        grew = true;
      }
    }
  }
  return keys.filter((key) => theirs.has(key.id) && key.revokedAt === null);
}

/** Revokes those of `keys` (keys of team `teamId`) that are still active; answers them, now revoked. */
export async function revokeKeys(
  db: Db,
  clock: Clock,
  teamId: string,
  keys: readonly ApiKey[],
): Promise<ApiKey[]> {
  const active = keys.filter((key) => key.revokedAt === null);
  if (active.length === 0) return [];
  const revokedAt = clock.now().toISOString();
  await db
    .updateTable('api_keys')
    .set({ revoked_at: revokedAt })
    .where('team_id', '=', teamId)
    .where(
      'id',
      'in',
      active.map((key) => key.id),
    )
    .where('revoked_at', 'is', null)
    .execute();
  return active.map((key) => ({ ...key, revokedAt }));
}
