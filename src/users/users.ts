import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { Role } from '../accounts/index.js';
import type { Clock } from '../shared/clock.js';
import { type Database, type Db, isPostgres } from '../storage/index.js';

export interface User {
  id: string;
  email: string;
  passwordHash: string | null;
  emailVerified: boolean;
  createdAt: string;
}

export interface Membership {
  teamId: string;
  userId: string;
  role: Role;
  createdAt: string;
}

/** An address: something@host, no spaces, at most 254 characters (`admin@localhost` is allowed). */
export const EMAIL_PATTERN_SOURCE = '^[^\\s@]+@[^\\s@]+$';
const EMAIL_PATTERN = new RegExp(EMAIL_PATTERN_SOURCE);

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value);
}

/** One account per address, whatever its case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** `usr_` + 32 hex characters. */
function newUserId(): string {
  return `usr_${randomBytes(16).toString('hex')}`;
}

type UserRow = {
  id: string;
  email: string;
  password_hash: string | null;
  email_verified: number;
  created_at: string;
};

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    emailVerified: row.email_verified === 1,
    createdAt: row.created_at,
  };
}

const USER_COLUMNS = ['id', 'email', 'password_hash', 'email_verified', 'created_at'] as const;

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const row = await db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function createUser(
  db: Db,
  clock: Clock,
  input: { email: string; passwordHash?: string | null; emailVerified?: boolean },
): Promise<User> {
  const row: UserRow = {
    id: newUserId(),
    email: normalizeEmail(input.email),
    password_hash: input.passwordHash ?? null,
    email_verified: input.emailVerified ? 1 : 0,
    created_at: clock.now().toISOString(),
  };
  await db.insertInto('users').values(row).execute();
  return toUser(row);
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

export async function markEmailVerified(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ email_verified: 1 }).where('id', '=', userId).execute();
}

function toMembership(row: {
  team_id: string;
  user_id: string;
  role: string;
  created_at: string;
}): Membership {
  return { teamId: row.team_id, userId: row.user_id, role: row.role as Role, createdAt: row.created_at };
}

/** Adds the user to the team, or changes the role when already a member. */
export async function upsertMembership(
  db: Db,
  clock: Clock,
  input: { teamId: string; userId: string; role: Role },
): Promise<Membership> {
  const existing = await findMembership(db, input.userId, input.teamId);
  if (existing) {
    await setRole(db, input.teamId, input.userId, input.role);
    return { ...existing, role: input.role };
  }
  const row = {
    team_id: input.teamId,
    user_id: input.userId,
    role: input.role,
    created_at: clock.now().toISOString(),
  };
  await db.insertInto('memberships').values(row).execute();
  return toMembership(row);
}

/** The membership of a user in a team (its key), as the filter of any query on memberships. */
export function theMembership(userId: string, teamId: string) {
  return (eb: ExpressionBuilder<Database, 'memberships'>) => eb.and({ user_id: userId, team_id: teamId });
}

export async function setRole(db: Db, teamId: string, userId: string, role: Role): Promise<void> {
  await db.updateTable('memberships').set({ role }).where(theMembership(userId, teamId)).execute();
}

export async function findMembership(db: Db, userId: string, teamId: string): Promise<Membership | null> {
  const row = await db
    .selectFrom('memberships')
    .selectAll()
    .where(theMembership(userId, teamId))
    .executeTakeFirst();
  return row ? toMembership(row) : null;
}

/**
 * The oldest team this address owns while its user has never signed in (no session ever created), or null:
 * the owner the server keeps printing a sign-in link for at start.
 */
export async function findOwnerAwaitingFirstSignIn(
  db: Db,
  email: string,
): Promise<{ userId: string; email: string; teamId: string } | null> {
  const row = await db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id as user_id', 'users.email as email', 'memberships.team_id as team_id'])
    .where('users.email', '=', normalizeEmail(email))
    .where('users.signed_in_at', 'is', null)
    .where('memberships.role', '=', 'owner')
    .orderBy('memberships.created_at')
    .orderBy('memberships.team_id')
    .executeTakeFirst();
  return row ? { userId: row.user_id, email: row.email, teamId: row.team_id } : null;
}

/** The team a user signs into: the oldest membership (contract: POST /v1/session). */
export async function firstMembership(db: Db, userId: string): Promise<Membership | null> {
  const row = await db
    .selectFrom('memberships')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('team_id')
    .executeTakeFirst();
  return row ? toMembership(row) : null;
}

/**
 * Takes the owner role from `userId` (a demotion to `role`, or a removal when `role` is null) only while
 * another owner remains, checked in the same transaction as the write: on PostgreSQL the team's owner rows
 * are locked first, so two owners demoting each other at once run one after the other and the second finds
 * itself the last owner; SQLite's single serving connection runs the transactions one at a time. `alsoDo`
 * runs in the transaction after the write. False (nothing changed) when it would leave no owner.
 */
export async function changeKeepingAnOwner(
  db: Db,
  input: { teamId: string; userId: string; role: Role | null },
  alsoDo?: (trx: Db) => Promise<unknown>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let owners = trx
      .selectFrom('memberships')
      .select('user_id')
      .where('team_id', '=', input.teamId)
      .where('role', '=', 'owner')
      // One lock order for every transaction: two of them cannot deadlock on the same rows.
      .orderBy('user_id');
    if (isPostgres(trx)) owners = owners.forUpdate();
    const ownerIds = (await owners.execute()).map((row) => row.user_id);
    const losesOwner = ownerIds.includes(input.userId) && input.role !== 'owner';
    if (losesOwner && ownerIds.length <= 1) return false;
    if (input.role) {
      await setRole(trx, input.teamId, input.userId, input.role);
    } else {
      await trx.deleteFrom('memberships').where(theMembership(input.userId, input.teamId)).execute();
    }
    await alsoDo?.(trx);
    return true;
  });
}
