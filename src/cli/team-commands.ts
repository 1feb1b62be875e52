import {
  changePlan,
  createApiKey,
  createTeam,
  findTeam,
  isPlanId,
  listTeams,
  revokeApiKey,
  type Team,
  updateTeam,
} from '../accounts/index.js';
import { pick } from '../shared/pick.js';
import type { AccountContext } from './context.js';
import { commandFlags } from './flags.js';
import { formatTable, tableDate } from './table.js';
import { checkEmailAddress } from './team-admin.js';
import { UsageError } from './usage-error.js';

/** A team as `team list --json` and the team-changing commands print it. */
function teamJson(t: Team) {
  return {
    ...pick(t, ['id', 'name', 'plan', 'suspended', 'email']),
    email_verified: t.emailVerified,
    created_at: t.createdAt,
  };
}

/** `quire team list`: a table with a header line and creation dates, or `{"teams": […]}`. */
export async function teamList(ctx: AccountContext, args: string[]): Promise<void> {
  noArguments(args, 'quire team list [--json]');
  const teams = await listTeams(ctx.db);
  if (ctx.json) return ctx.print(JSON.stringify({ teams: teams.map(teamJson) }));
  if (teams.length === 0) return ctx.print('No teams yet: `quire team create --name NAME --plan PLAN`.');
  const rows = teams.map((t) => [
    t.id,
    t.plan,
    t.suspended ? 'suspended' : 'active',
    t.email ?? '-',
    tableDate(t.createdAt),
    t.name,
  ]);
  for (const line of formatTable(['ID', 'PLAN', 'STATUS', 'EMAIL', 'CREATED', 'NAME'], rows)) ctx.print(line);
}

/** `quire team suspend|unsuspend TEAM_ID`. */
export async function teamSuspend(ctx: AccountContext, args: string[], suspended: boolean): Promise<void> {
  const id = onePositional(args, 'TEAM_ID');
  if (!(await updateTeam(ctx.db, id, { suspended }))) throw new UsageError(`No team ${id}.`);
  await printUpdated(ctx, id);
}

/** `quire team set-plan TEAM_ID PLAN`: the change time is kept, so the period's included documents are prorated. */
export async function teamSetPlan(ctx: AccountContext, args: string[]): Promise<void> {
  const [id, plan, ...extra] = args;
  if (!id || !plan || extra.length > 0) throw new UsageError('Usage: quire team set-plan TEAM_ID PLAN');
  if (!isPlanId(plan)) throw new UsageError(`Unknown plan "${plan}" (free, starter, growth, pro, scale).`);
  if (!(await changePlan(ctx.db, ctx.clock, id, plan))) throw new UsageError(`No team ${id}.`);
  await printUpdated(ctx, id);
}

async function printUpdated(ctx: AccountContext, id: string): Promise<void> {
  const team = await findTeam(ctx.db, id);
  if (ctx.json && team) return ctx.print(JSON.stringify({ team: teamJson(team) }));
  ctx.print(`Team ${id} updated.`);
}

/** `quire team create --name NAME --plan PLAN [--email ADDRESS] [--email-verified]`: the team and its two keys. */
export async function teamCreate(ctx: AccountContext, args: string[]): Promise<void> {
  const { values } = commandFlags(args, {
    name: { type: 'string' },
    plan: { type: 'string' },
    email: { type: 'string' },
    'email-verified': { type: 'boolean', default: false },
  });
  const name = values.name?.trim();
  if (!name || name.length > 100) throw new UsageError('--name NAME is required (1 to 100 characters).');
  const plan = values.plan ?? '';
  if (!isPlanId(plan)) throw new UsageError('--plan must be one of free, starter, growth, pro, scale.');
  const { db, clock } = ctx;
  const team = await createTeam(db, clock, {
    name,
    plan,
    email: values.email === undefined ? null : checkEmailAddress(values.email),
    emailVerified: values['email-verified'],
  });
  const live = await createApiKey(db, clock, { teamId: team.id, mode: 'live', role: 'admin' });
  const test = await createApiKey(db, clock, { teamId: team.id, mode: 'test', role: 'admin' });
  if (ctx.json) {
    ctx.print(
      JSON.stringify({
        team: { id: team.id, name: team.name, plan: team.plan },
        keys: { live: live.key, test: test.key },
      }),
    );
    return;
  }
  ctx.print(`Team ${team.name} (${team.id}), plan ${team.plan}`);
  ctx.print(`  live key: ${live.key}`);
  ctx.print(`  test key: ${test.key}`);
  ctx.print('Keep these keys safe: they are shown only once.');
}

/** `quire key create --team TEAM_ID --mode live|test [--role admin|member] [--name NAME]`: shown once. */
export async function keyCreate(ctx: AccountContext, args: string[]): Promise<void> {
  const { values } = commandFlags(args, {
    team: { type: 'string' },
    mode: { type: 'string' },
    role: { type: 'string', default: 'admin' },
    name: { type: 'string' },
  });
  const mode = values.mode;
  if (mode !== 'live' && mode !== 'test') throw new UsageError('--mode must be live or test.');
  const role = values.role;
  if (role !== 'admin' && role !== 'member') throw new UsageError('--role must be admin or member.');
  const teamId = values.team;
  if (!teamId) throw new UsageError('--team TEAM_ID is required (`quire team list` shows the ids).');
  if (!(await findTeam(ctx.db, teamId))) throw new UsageError(`No team ${teamId}.`);
  const created = await createApiKey(ctx.db, ctx.clock, {
    teamId,
    mode,
    role,
    ...(values.name ? { name: values.name } : {}),
  });
  if (ctx.json) {
    ctx.print(
      JSON.stringify({
        key: created.key,
        id: created.apiKey.id,
        team_id: teamId,
        mode,
        role,
        prefix: created.apiKey.prefix,
      }),
    );
    return;
  }
  ctx.print(`${mode} key (${role}) for team ${teamId}: ${created.key}`);
  ctx.print('Keep it safe: it is shown only once.');
}

/** `quire key revoke KEY_OR_PREFIX`. */
export async function keyRevoke(ctx: AccountContext, args: string[]): Promise<void> {
  const target = onePositional(args, 'KEY_OR_PREFIX');
  const n = await revokeApiKey(ctx.db, ctx.clock, target);
  if (n === -1) throw new UsageError('That prefix matches several keys; pass the whole key.');
  if (n === 0) throw new UsageError('No active key matches.');
  ctx.print(ctx.json ? JSON.stringify({ revoked: true, prefix: target.slice(0, 12) }) : 'Key revoked.');
}

function onePositional(args: string[], name: string): string {
  const [value, ...extra] = args;
  if (!value || value.startsWith('-') || extra.length > 0) throw new UsageError(`Pass exactly one ${name}.`);
  return value;
}

function noArguments(args: string[], usage: string): void {
  if (args.length > 0) throw new UsageError(`Unexpected "${args[0]}". Usage: ${usage}`);
}
