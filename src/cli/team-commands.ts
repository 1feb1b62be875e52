import { parseArgs } from 'node:util';
import { changePlan } from '../accounts/billing.js';
import { isPlanId } from '../accounts/plans.js';
import { createApiKey, createTeam, listTeams, revokeApiKey, updateTeam } from '../accounts/teams.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { type BillingContext, teamBilling, teamSetBilling } from './billing-commands.js';
import { checkEmailAddress } from './team-admin.js';
import { UsageError } from './usage-error.js';

export async function teamCommand(ctx: BillingContext, args: string[]): Promise<void> {
  const { db, clock, print } = ctx;
  const [sub, ...rest] = args;
  switch (sub) {
    case 'billing':
      return teamBilling(ctx, rest);
    case 'set-billing':
      return teamSetBilling(ctx, rest);
    case 'create':
      return teamCreate(db, clock, rest, print);
    case 'suspend':
    case 'unsuspend':
      return setTeam(db, requireArg(rest[0], 'TEAM_ID'), { suspended: sub === 'suspend' }, print);
    case 'set-plan': {
      const plan = requireArg(rest[1], 'PLAN');
      if (!isPlanId(plan))
        throw new UsageError(`Unknown plan "${plan}" (free, starter, growth, pro, scale).`);
      const id = requireArg(rest[0], 'TEAM_ID');
      // The change time is recorded: the period's included documents are prorated around it.
      if (!(await changePlan(db, clock, id, plan))) throw new UsageError(`No team ${id}.`);
      print(`Team ${id} updated.`);
      return;
    }
    case 'list': {
      const teams = await listTeams(db);
      if (rest.includes('--json')) {
        print(
          JSON.stringify({
            teams: teams.map((t) => ({
              id: t.id,
              name: t.name,
              plan: t.plan,
              suspended: t.suspended,
              email: t.email,
              email_verified: t.emailVerified,
              created_at: t.createdAt,
            })),
          }),
        );
      } else {
        for (const t of teams)
          print(`${t.id}  ${t.plan.padEnd(8)} ${t.suspended ? 'suspended ' : ''}${t.name}`);
      }
      return;
    }
    default:
      throw new UsageError('Usage: quire team create|suspend|unsuspend|set-plan|billing|set-billing|list …');
  }
}

async function teamCreate(
  db: Db,
  clock: Clock,
  args: string[],
  print: (line: string) => void,
): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      email: { type: 'string' },
      'email-verified': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const name = values.name?.trim();
  if (!name || name.length > 100) throw new UsageError('--name NAME is required (1 to 100 characters).');
  const plan = values.plan ?? '';
  if (!isPlanId(plan)) throw new UsageError('--plan must be one of free, starter, growth, pro, scale.');
  const team = await createTeam(db, clock, {
    name,
    plan,
    email: values.email === undefined ? null : checkEmailAddress(values.email),
    emailVerified: values['email-verified'],
  });
  const live = await createApiKey(db, clock, { teamId: team.id, mode: 'live', role: 'admin' });
  const test = await createApiKey(db, clock, { teamId: team.id, mode: 'test', role: 'admin' });
  if (values.json) {
    print(
      JSON.stringify({
        team: { id: team.id, name: team.name, plan: team.plan },
        keys: { live: live.key, test: test.key },
      }),
    );
  } else {
    print(`Team ${team.name} (${team.id}), plan ${team.plan}`);
    print(`  live key: ${live.key}`);
    print(`  test key: ${test.key}`);
    print('Keep these keys safe: they are shown only once.');
  }
}

async function setTeam(
  db: Db,
  id: string,
  changes: Parameters<typeof updateTeam>[2],
  print: (line: string) => void,
): Promise<void> {
  if (!(await updateTeam(db, id, changes))) throw new UsageError(`No team ${id}.`);
  print(`Team ${id} updated.`);
}

export async function keyCommand(
  db: Db,
  clock: Clock,
  args: string[],
  print: (line: string) => void,
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: {
        team: { type: 'string' },
        mode: { type: 'string' },
        role: { type: 'string', default: 'admin' },
        name: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    });
    const mode = values.mode;
    if (mode !== 'live' && mode !== 'test') throw new UsageError('--mode must be live or test.');
    const role = values.role;
    if (role !== 'admin' && role !== 'member') throw new UsageError('--role must be admin or member.');
    const teamId = requireArg(values.team, '--team TEAM_ID');
    const teams = await listTeams(db);
    if (!teams.some((t) => t.id === teamId)) throw new UsageError(`No team ${teamId}.`);
    const created = await createApiKey(db, clock, {
      teamId,
      mode,
      role,
      ...(values.name ? { name: values.name } : {}),
    });
    if (values.json) {
      print(
        JSON.stringify({
          key: created.key,
          id: created.apiKey.id,
          team_id: teamId,
          mode,
          role,
          prefix: created.apiKey.prefix,
        }),
      );
    } else {
      print(`${mode} key (${role}) for team ${teamId}: ${created.key}`);
    }
    return;
  }
  if (sub === 'revoke') {
    const target = requireArg(rest[0], 'KEY_OR_PREFIX');
    const n = await revokeApiKey(db, clock, target);
    if (n === -1) throw new UsageError('That prefix matches several keys; pass the whole key.');
    if (n === 0) throw new UsageError('No active key matches.');
    print('Key revoked.');
    return;
  }
  throw new UsageError('Usage: quire key create|revoke …');
}

function requireArg(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`${name} is required.`);
  return value;
}
