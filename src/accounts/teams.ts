import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import { countRows, type Db } from '../storage/index.js';
import { generateApiKey, hashApiKey, type KeyMode, type KeyRole, keyPrefix } from './api-keys.js';
import { recordPlanChange } from './plan-history.js';
import type { Plan, PlanId } from './plans.js';

export interface Team {
  id: string;
  name: string;
  plan: PlanId;
  email: string | null;
  emailVerified: boolean;
  suspended: boolean;
  createdAt: string;
}

/** Who made a key or an invitation: a signed-in user or a key; null when the operator did (CLI, first run). */
export type Creator = { kind: 'user'; id: string } | { kind: 'key'; id: string } | null;

export interface ApiKey {
  id: string;
  teamId: string;
  name: string;
  mode: KeyMode;
  role: KeyRole;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  createdBy: Creator;
}

/** The creator columns of a row (api_keys, user_tokens) as a Creator. */
export function creatorOf(row: {
  created_by_user_id: string | null;
  created_by_key_id: string | null;
}): Creator {
  if (row.created_by_user_id) return { kind: 'user', id: row.created_by_user_id };
  if (row.created_by_key_id) return { kind: 'key', id: row.created_by_key_id };
  return null;
}

/** A Creator as the two creator columns. */
export function creatorColumns(creator: Creator): {
  created_by_user_id: string | null;
  created_by_key_id: string | null;
} {
  return {
    created_by_user_id: creator?.kind === 'user' ? creator.id : null,
    created_by_key_id: creator?.kind === 'key' ? creator.id : null,
  };
}

type TeamRow = {
  id: string;
  name: string;
  plan: string;
  email: string | null;
  email_verified: number;
  suspended: number;
  created_at: string;
};

/** A `teams` row (or a join that selects its columns under their own names) as a Team. */
export function toTeam(row: TeamRow): Team {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as PlanId,
    email: row.email,
    emailVerified: row.email_verified === 1,
    suspended: row.suspended === 1,
    createdAt: row.created_at,
  };
}

export async function createTeam(
  db: Db,
  clock: Clock,
  input: { name: string; plan: PlanId; email?: string | null; emailVerified?: boolean },
): Promise<Team> {
  const row: TeamRow = {
    id: newId(),
    name: input.name,
    plan: input.plan,
    email: input.email ?? null,
    email_verified: input.emailVerified ? 1 : 0,
    suspended: 0,
    created_at: clock.now().toISOString(),
  };
  // Spec: Free teams have no subscription; a team created on a paid plan starts subscribed.
  const subscription = input.plan === 'free' ? 'none' : 'active';
  const insert = async (trx: Db) => {
    await trx
      .insertInto('teams')
      .values({ ...row, subscription, spending_cap_cents: null, overage_billed_period: null })
      .execute();
    await recordPlanChange(trx, { teamId: row.id, plan: input.plan, at: row.created_at });
  };
  // Part of a caller's transaction (the first run's team, keys and owner) or one of its own.
  await (db.isTransaction ? insert(db) : db.transaction().execute(insert));
  return toTeam(row);
}

export async function findTeam(db: Db, id: string): Promise<Team | null> {
  const row = await db
    .selectFrom('teams')
    .select(['id', 'name', 'plan', 'email', 'email_verified', 'suspended', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toTeam(row) : null;
}

/** The team's plan, or null when the team no longer exists (background work of a deleted team). */
export async function planOfTeam(db: Db, plans: Record<PlanId, Plan>, teamId: string): Promise<Plan | null> {
  const team = await findTeam(db, teamId);
  return team ? (plans[team.plan] ?? null) : null;
}

export async function listTeams(db: Db): Promise<Team[]> {
  const rows = await db
    .selectFrom('teams')
    .select(['id', 'name', 'plan', 'email', 'email_verified', 'suspended', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toTeam);
}

export function countTeams(db: Db): Promise<number> {
  return countRows(db.selectFrom('teams'));
}

/** Returns false when no such team exists. */
export async function updateTeam(
  db: Db,
  id: string,
  changes: Partial<{ suspended: boolean; email: string | null; emailVerified: boolean }>,
): Promise<boolean> {
  const values: Partial<TeamRow> = {};
  if (changes.suspended !== undefined) values.suspended = changes.suspended ? 1 : 0;
  if (changes.email !== undefined) values.email = changes.email;
  if (changes.emailVerified !== undefined) values.email_verified = changes.emailVerified ? 1 : 0;
  const result = await db.updateTable('teams').set(values).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Creates a key and returns the full key text: the only time it exists outside the caller's hands. The role
 * is always chosen by the caller: the operator's keys (first run, CLI) are admin, the API's default member.
 */
export async function createApiKey(
  db: Db,
  clock: Clock,
  input: { teamId: string; mode: KeyMode; role: KeyRole; name?: string; createdBy?: Creator },
): Promise<{ key: string; apiKey: ApiKey }> {
  const generated = generateApiKey(input.mode);
  const apiKey: ApiKey = {
    id: newId(),
    teamId: input.teamId,
    name: input.name ?? `${input.mode} key`,
    mode: input.mode,
    role: input.role,
    prefix: generated.prefix,
    createdAt: clock.now().toISOString(),
    revokedAt: null,
    createdBy: input.createdBy ?? null,
  };
  await db
    .insertInto('api_keys')
    .values({
      id: apiKey.id,
      team_id: apiKey.teamId,
      name: apiKey.name,
      mode: apiKey.mode,
      prefix: apiKey.prefix,
      key_hash: generated.hash,
      created_at: apiKey.createdAt,
      revoked_at: null,
      role: apiKey.role,
      ...creatorColumns(apiKey.createdBy),
    })
    .execute();
  return { key: generated.key, apiKey };
}

/**
 * Revokes by full key, or by prefix when exactly one active key has it.
 * Returns the number of keys revoked (0 = none matched; an ambiguous prefix revokes nothing and returns -1).
 */
export async function revokeApiKey(db: Db, clock: Clock, keyOrPrefix: string): Promise<number> {
  const now = clock.now().toISOString();
  if (keyOrPrefix.length > 12) {
    const result = await db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('key_hash', '=', hashApiKey(keyOrPrefix))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
  const matches = await db
    .selectFrom('api_keys')
    .select('id')
    .where('prefix', '=', keyPrefix(keyOrPrefix))
    .where('revoked_at', 'is', null)
    .execute();
  if (matches.length > 1) return -1;
  const match = matches[0];
  if (!match) return 0;
  await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', match.id).execute();
  return 1;
}
