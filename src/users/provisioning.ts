import type { Role } from '../accounts/index.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { dashboardLink } from './emails.js';
import { issueToken } from './tokens.js';
import {
  changeKeepingAnOwner,
  createUser,
  findMembership,
  findOwnerAwaitingFirstSignIn,
  findUserByEmail,
  upsertMembership,
} from './users.js';

export interface SignInLink {
  user: { id: string; email: string };
  sign_in_url: string;
}

/**
 * The operator's way in (CLI `user create`, first run): the user (created when new) gets `role` in the team
 * and a single-use sign-in link valid 24 h, which signs them in and asks for a password.
 */
export async function createSignInLink(
  db: Db,
  clock: Clock,
  input: { email: string; teamId: string; role: Role; publicUrl: string },
): Promise<SignInLink> {
  const user =
    (await findUserByEmail(db, input.email)) ?? (await createUser(db, clock, { email: input.email }));
  const member = await findMembership(db, user.id, input.teamId);
  if (!member) {
    await upsertMembership(db, clock, { teamId: input.teamId, userId: user.id, role: input.role });
  } else if (!(await changeKeepingAnOwner(db, { teamId: input.teamId, userId: user.id, role: input.role }))) {
    // The operator's demotion is held to the same rule as the dashboard's.
    throw new AppError(
      'forbidden',
      `${user.email} is the team's last owner: make another member owner first, or keep --role owner.`,
    );
  }
  return issueSignInLink(
    db,
    clock,
    { userId: user.id, email: user.email, teamId: input.teamId },
    input.publicUrl,
  );
}

/**
 * Every start that is not the first (cli/serve.ts): while the owner QUIRE_ADMIN_EMAIL names has never signed
 * in, a fresh single-use link into their oldest team. The first run's link may have expired unused or been
 * lost with the terminal; null once the owner has signed in (or when the address owns no team).
 */
export async function renewOwnerLink(
  db: Db,
  clock: Clock,
  input: { email: string; publicUrl: string },
): Promise<SignInLink | null> {
  const owner = await findOwnerAwaitingFirstSignIn(db, input.email);
  if (!owner) return null;
  return issueSignInLink(db, clock, owner, input.publicUrl);
}

/** A single-use sign-in link (24 h) into `teamId` for the user. */
async function issueSignInLink(
  db: Db,
  clock: Clock,
  user: { userId: string; email: string; teamId: string },
  publicUrl: string,
): Promise<SignInLink> {
  const { token } = await issueToken(db, clock, {
    purpose: 'sign_in',
    userId: user.userId,
    teamId: user.teamId,
  });
  return {
    user: { id: user.userId, email: user.email },
    sign_in_url: dashboardLink(publicUrl, 'sign_in', token),
  };
}
