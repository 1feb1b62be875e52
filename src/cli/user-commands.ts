import { findTeam, ROLES, type Role } from '../accounts/index.js';
import { type Config, derivePublicUrl } from '../config/config.js';
import { isAppError } from '../shared/errors.js';
import { type Db, readServerState } from '../storage/index.js';
import { createSignInLink, isEmailAddress } from '../users/index.js';
import type { AccountContext } from './context.js';
import { commandFlags } from './flags.js';
import { UsageError } from './usage-error.js';

/** `quire user create --email ADDRESS --team TEAM_ID --role owner|admin|member [--json]`. */
export async function userCreate(ctx: AccountContext, args: string[]): Promise<void> {
  const { values } = commandFlags(args, {
    email: { type: 'string' },
    team: { type: 'string' },
    role: { type: 'string' },
  });
  const email = values.email?.trim() ?? '';
  if (!isEmailAddress(email)) throw new UsageError('--email ADDRESS is required (an email address).');
  const teamId = values.team ?? '';
  if (!teamId) throw new UsageError('--team TEAM_ID is required (`quire team list` shows the ids).');
  const role = values.role ?? '';
  if (!isRole(role)) throw new UsageError('--role must be one of owner, admin, member.');
  const team = await findTeam(ctx.db, teamId);
  if (!team) throw new UsageError(`No team ${teamId}.`);
  const link = await createSignInLink(ctx.db, ctx.clock, {
    email,
    teamId,
    role,
    publicUrl: await serverPublicUrl(ctx.db, ctx.config),
  }).catch((err: unknown) => {
    // A refusal (the last owner's demotion) is the operator's to fix, like a usage error.
    throw isAppError(err) ? new UsageError(err.message) : err;
  });
  if (ctx.json) {
    ctx.print(JSON.stringify({ user: link.user, sign_in_url: link.sign_in_url }));
    return;
  }
  ctx.print(`User ${link.user.email} (${link.user.id}) is ${role} of ${team.name} (${team.id}).`);
  ctx.print(`Sign-in link (works once, within 24 hours): ${link.sign_in_url}`);
}

/**
 * Where the link must point: QUIRE_PUBLIC_URL when set, else the address the server last recorded when it
 * started listening (its bound port, which the CLI's own environment does not know), else the derived default.
 */
async function serverPublicUrl(db: Db, config: Config): Promise<string> {
  return config.publicUrl || (await readServerState(db, 'public_url')) || derivePublicUrl(config);
}

function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
