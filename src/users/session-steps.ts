import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { BAD_TOKEN, EXPIRED, sessionView } from './session-actions.js';
import { type LiveSession, loadSession, updateSession } from './sessions.js';
import { consumeToken, type TokenPurpose } from './tokens.js';

/** The rows the steps read and write, and the time that decides what has expired. */
interface StepDeps {
  db: Db;
  clock: Clock;
}

/** The user (and team, where the link names one) an emailed link was made for. */
interface LinkUser {
  userId: string;
  teamId: string | null;
}

/**
 * Uses up an emailed link of a user (sign-in, reset, verification). Unknown, used, expired or made for
 * no user: one answer, 400 invalid_token, so a guess learns nothing about which it was.
 */
export async function consumeUserLink(
  deps: StepDeps,
  token: string,
  purpose: TokenPurpose,
): Promise<LinkUser> {
  const found = await consumeToken(deps.db, deps.clock, token, purpose);
  if (!found?.userId) throw new AppError('invalid_token', BAD_TOKEN);
  return { userId: found.userId, teamId: found.teamId };
}

/**
 * Points the session at another team of its user and answers the Session from the row as it now is:
 * the role and mode come with the team. A session ended meanwhile is 401 like any other ended one.
 */
export async function moveSessionToTeam(deps: StepDeps, session: LiveSession, teamId: string) {
  await updateSession(deps.db, session.idHash, { teamId });
  const moved = await loadSession(deps.db, deps.clock, session.id);
  if (!moved) throw new AppError('unauthenticated', EXPIRED);
  return sessionView(moved);
}
