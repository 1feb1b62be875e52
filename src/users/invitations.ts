import { type AuthContext, creatorOfRequest, hasRole, type Role } from '../accounts/index.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { type Db, lockKey } from '../storage/index.js';
import { issueToken, listInvitations, type UserToken } from './tokens.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Stores an invitation made by `auth`, counted against the team's invitation emails of the last 24 hours
 * (`perDay`, QUIRE_INVITATIONS_PER_DAY). Withdrawn and accepted invitations count too: the quota limits the
 * emails sent, which withdrawing does not unsend. Refused with 429 `email_limit_reached` and `Retry-After`.
 */
export async function createInvitation(
  db: Db,
  clock: Clock,
  input: { auth: AuthContext; email: string; role: Role; perDay: number },
): Promise<{ token: string; record: UserToken }> {
  const teamId = input.auth.team.id;
  return db.transaction().execute(async (trx) => {
    // Concurrent invitations of one team wait here on PostgreSQL (SQLite serialises its writers).
    await lockKey(trx, `invitations:${teamId}`);
    const now = clock.now();
    const sent = await trx
      .selectFrom('user_tokens')
      .select(['created_at'])
      .where('team_id', '=', teamId)
      .where('purpose', '=', 'invite')
      .where('created_at', '>', new Date(now.getTime() - DAY_MS).toISOString())
      .orderBy('created_at')
      .execute();
    if (sent.length >= input.perDay) {
      // The window frees a slot when the oldest invitation still in it turns 24 hours old.
      const oldest = sent[sent.length - input.perDay]?.created_at ?? now.toISOString();
      const retryAfter = Math.max(1, Math.ceil((Date.parse(oldest) + DAY_MS - now.getTime()) / 1000));
      throw new AppError(
        'email_limit_reached',
        `This team has sent ${sent.length} invitation emails in the last 24 hours; the limit is ${input.perDay} (QUIRE_INVITATIONS_PER_DAY). Try again in ${Math.ceil(retryAfter / 60)} minutes.`,
        { limit: 'invitations_per_day', max: input.perDay },
        { 'retry-after': String(retryAfter) },
      );
    }
    return issueToken(trx, clock, {
      purpose: 'invite',
      teamId,
      email: input.email,
      role: input.role,
      createdBy: creatorOfRequest(input.auth),
    });
  });
}

/**
 * Whether the invitation's creator may still invite: a user still an admin or owner of the team, a key still
 * unrevoked (an admin live key). Creator-less invitations (made before migration 0015) stand. Removing or
 * demoting a user withdraws their invitations at once; this check also covers revoked keys and any other
 * way a creator loses the role.
 */
export async function creatorMayStillInvite(db: Db, invite: UserToken): Promise<boolean> {
  const creator = invite.createdBy;
  if (!creator || !invite.teamId) return true;
  if (creator.kind === 'key') {
    const key = await db
      .selectFrom('api_keys')
      .select(['mode', 'role', 'revoked_at'])
      .where('id', '=', creator.id)
      .where('team_id', '=', invite.teamId)
      .executeTakeFirst();
    return Boolean(key && !key.revoked_at && key.mode === 'live' && key.role === 'admin');
  }
  const membership = await db
    .selectFrom('memberships')
    .select('role')
    .where('user_id', '=', creator.id)
    .where('team_id', '=', invite.teamId)
    .executeTakeFirst();
  return Boolean(membership && hasRole(membership.role as Role, 'admin'));
}

/** The team's open invitations whose creators may still invite, oldest first. */
export async function openInvitations(db: Db, clock: Clock, teamId: string): Promise<UserToken[]> {
  const all = await listInvitations(db, clock, teamId);
  const backed = await Promise.all(all.map((invite) => creatorMayStillInvite(db, invite)));
  return all.filter((_, i) => backed[i]);
}

/** An invitation is accepted only by the address it was sent to (compared lower-cased, as stored). */
export function checkInvitee(invite: UserToken, email: string): void {
  if (invite.email && invite.email !== email.toLowerCase()) {
    throw new AppError(
      'forbidden',
      `This invitation was sent to another email address; you are signed in as ${email}. Sign in with the invited address, or ask an admin to invite ${email}.`,
    );
  }
}
