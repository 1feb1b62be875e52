import { openBlobStore } from '../storage/index.js';
import type { AccountContext } from './context.js';
import { commandFlags } from './flags.js';
import { formatTable, tableDate } from './table.js';
import { eraseTeam } from './team-erase.js';
import { UsageError } from './usage-error.js';

/** The rule POST /pdf's `deliver.email.to` uses (src/production/request-schema.ts), so the CLI accepts what the API accepts. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Refuses an address the email sender could never deliver to (`team create --email`). */
export function checkEmailAddress(address: string): string {
  if (address.length > 254 || !EMAIL_PATTERN.test(address))
    throw new UsageError(`--email "${address}" is not an email address (expected name@domain.example).`);
  return address;
}

/** `quire team delete TEAM_ID --yes`: erases the team and its data; refuses without --yes. */
export async function teamDelete(ctx: AccountContext, args: string[]): Promise<void> {
  const { values, positionals } = commandFlags(args, { yes: { type: 'boolean', default: false } }, true);
  const teamId = positionals[0];
  if (!teamId || positionals.length > 1) throw new UsageError('Usage: quire team delete TEAM_ID --yes');
  if (!values.yes)
    throw new UsageError(
      `Refusing to delete team ${teamId} without --yes: it erases all its documents, files, templates, keys, webhooks and batches for good.`,
    );
  const store = await openBlobStore(ctx.config.dataDir, ctx.config.storage);
  try {
    const erased = await eraseTeam(ctx.db, store.blobs, teamId);
    if (!erased) throw new UsageError(`No team ${teamId}.`);
    ctx.print(
      ctx.json
        ? JSON.stringify({ deleted: true, team_id: teamId, records: erased.rows, files: erased.files })
        : `Team ${teamId} deleted (${erased.rows} records, ${erased.files} stored files).`,
    );
  } finally {
    store.close();
  }
}

/** `quire key list --team TEAM_ID`: prefixes, modes, roles, names and dates; never the keys themselves. */
export async function keyList(ctx: AccountContext, args: string[]): Promise<void> {
  const { values } = commandFlags(args, { team: { type: 'string' } });
  if (!values.team) throw new UsageError('--team TEAM_ID is required (`quire team list` shows the ids).');
  const { db } = ctx;
  const team = await db.selectFrom('teams').select('id').where('id', '=', values.team).executeTakeFirst();
  if (!team) throw new UsageError(`No team ${values.team}.`);
  const keys = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'mode', 'role', 'prefix', 'created_at', 'revoked_at'])
    .where('team_id', '=', values.team)
    .orderBy('created_at')
    .execute();
  if (ctx.json) return ctx.print(JSON.stringify({ keys }));
  const rows = keys.map((k) => [
    `${k.prefix}…`,
    k.mode,
    k.role,
    k.revoked_at ? 'revoked' : 'active',
    tableDate(k.created_at),
    tableDate(k.revoked_at),
    k.name,
  ]);
  const headers = ['PREFIX', 'MODE', 'ROLE', 'STATUS', 'CREATED', 'REVOKED', 'NAME'];
  for (const line of formatTable(headers, rows)) ctx.print(line);
}
