import { type Creator, creatorColumns, creatorOf, type Role } from '../accounts/index.js';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import type { Db } from '../storage/index.js';
import { hashSecret, newSecret } from './sessions.js';
import type { UserTokensTable } from './tables.js';

export type TokenPurpose = 'sign_in' | 'reset' | 'verify' | 'invite';

const HOUR_MS = 60 * 60 * 1000;

/** How long each kind of link works: sign-in links 24 h (contract), resets 1 h, the others a week. */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  sign_in: 24 * HOUR_MS,
  reset: HOUR_MS,
  verify: 7 * 24 * HOUR_MS,
  invite: 7 * 24 * HOUR_MS,
};

export interface UserToken {
  id: string;
  purpose: TokenPurpose;
  userId: string | null;
  teamId: string | null;
  email: string | null;
  role: Role | null;
  createdAt: string;
  expiresAt: string;
  /** Who made an invitation (null for other tokens and the operator's). */
  createdBy: Creator;
}

/** What a token read shows: every column but the hash and the used mark. */
const TOKEN_COLUMNS = [
  'id',
  'purpose',
  'user_id',
  'team_id',
  'email',
  'role',
  'created_at',
  'expires_at',
  'created_by_user_id',
  'created_by_key_id',
] as const;

type TokenRow = Pick<UserTokensTable, (typeof TOKEN_COLUMNS)[number]>;

function toToken(row: TokenRow): UserToken {
  return {
    id: row.id,
    purpose: row.purpose as TokenPurpose,
    userId: row.user_id,
    teamId: row.team_id,
    email: row.email,
    role: row.role as Role | null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    createdBy: creatorOf(row),
  };
}

/** Stores a new single-use token (its hash only) and returns the token text, the one time it exists. */
export async function issueToken(
  db: Db,
  clock: Clock,
  input: {
    purpose: TokenPurpose;
    userId?: string | null;
    teamId?: string | null;
    email?: string | null;
    role?: Role | null;
    createdBy?: Creator;
  },
): Promise<{ token: string; record: UserToken }> {
  const token = newSecret();
  const now = clock.now();
  const row: TokenRow = {
    id: newId(),
    purpose: input.purpose,
    user_id: input.userId ?? null,
    team_id: input.teamId ?? null,
    email: input.email ?? null,
    role: input.role ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + TOKEN_TTL_MS[input.purpose]).toISOString(),
    ...creatorColumns(input.createdBy ?? null),
  };
  await db
    .insertInto('user_tokens')
    .values({ ...row, token_hash: hashSecret(token), used_at: null })
    .execute();
  return { token, record: toToken(row) };
}

/** The unused, unexpired token of this purpose, without using it up (null otherwise). */
export async function peekToken(
  db: Db,
  clock: Clock,
  token: string,
  purpose: TokenPurpose,
): Promise<UserToken | null> {
  const row = await db
    .selectFrom('user_tokens')
    .select(TOKEN_COLUMNS)
    .where('token_hash', '=', hashSecret(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', clock.now().toISOString())
    .executeTakeFirst();
  return row ? toToken(row) : null;
}

/**
 * Uses the token up: one conditional UPDATE, so two requests racing with the same token cannot both
 * succeed. Null when it is unknown, used, expired or of another purpose.
 */
export async function consumeToken(
  db: Db,
  clock: Clock,
  token: string,
  purpose: TokenPurpose,
): Promise<UserToken | null> {
  const found = await peekToken(db, clock, token, purpose);
  if (!found) return null;
  const now = clock.now().toISOString();
  const result = await db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('id', '=', found.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? found : null;
}

/** Open invitations of a team, oldest first. */
export async function listInvitations(db: Db, clock: Clock, teamId: string): Promise<UserToken[]> {
  const rows = await db
    .selectFrom('user_tokens')
    .select(TOKEN_COLUMNS)
    .where('team_id', '=', teamId)
    .where('purpose', '=', 'invite')
    .where('used_at', 'is', null)
    .where('expires_at', '>', clock.now().toISOString())
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toToken);
}

/**
 * Withdraws open invitations of a team: one by id, or every one a creator made. The rows are marked used,
 * not deleted, so withdrawn invitations still count in the team's daily quota. Returns how many.
 */
export async function withdrawInvitations(
  db: Db,
  clock: Clock,
  teamId: string,
  which: { id: string } | { createdBy: NonNullable<Creator> },
): Promise<number> {
  let query = db
    .updateTable('user_tokens')
    .set({ used_at: clock.now().toISOString() })
    .where('team_id', '=', teamId)
    .where('purpose', '=', 'invite')
    .where('used_at', 'is', null);
  if ('id' in which) query = query.where('id', '=', which.id);
  else {
    const column = which.createdBy.kind === 'user' ? 'created_by_user_id' : 'created_by_key_id';
    query = query.where(column, '=', which.createdBy.id);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Ends the user's unused tokens of these purposes (marked used, so a late click reads "already used"):
 * a password change or reset ends every reset and sign-in link, a new reset request the previous one.
 */
export async function revokeUserTokens(
  db: Db,
  clock: Clock,
  userId: string,
  purposes: readonly TokenPurpose[],
): Promise<void> {
  await db
    .updateTable('user_tokens')
    .set({ used_at: clock.now().toISOString() })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}
