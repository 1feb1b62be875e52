import { parseArgs } from 'node:util';
import type { BlobStore } from '../storage/blob-store.js';
import type { Db } from '../storage/index.js';
import { eraseTeam } from './team-erase.js';
import { UsageError } from './usage-error.js';

type Print = (line: string) => void;

/** The rule POST /pdf's `deliver.email.to` uses (src/pdf/schema.ts), so the CLI accepts what the API accepts. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Refuses an address the email sender could never deliver to (`team create --email`). */
export function checkEmailAddress(address: string): string {
  if (address.length > 254 || !EMAIL_PATTERN.test(address))
    throw new UsageError(`--email "${address}" is not an email address (expected name@domain.example).`);
  return address;
}

/** `quire team delete TEAM_ID --yes`: erases the team and its data; refuses without --yes. */
export async function teamDelete(db: Db, blobs: BlobStore, args: string[], print: Print): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { yes: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  const teamId = positionals[0];
  if (!teamId || positionals.length > 1) throw new UsageError('Usage: quire team delete TEAM_ID --yes');
  if (!values.yes)
    throw new UsageError(
      `Refusing to delete team ${teamId} without --yes: it erases all its documents, files, templates, keys, webhooks and batches for good.`,
    );
  const erased = await eraseTeam(db, blobs, teamId);
  if (!erased) throw new UsageError(`No team ${teamId}.`);
  print(`Team ${teamId} deleted (${erased.rows} records, ${erased.files} stored files).`);
}

/** `quire key list --team TEAM_ID [--json]`: prefixes, modes, roles and states; never the keys themselves. */
export async function keyList(db: Db, args: string[], print: Print): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { team: { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
  });
  if (!values.team) throw new UsageError('--team TEAM_ID is required.');
  const team = await db.selectFrom('teams').select('id').where('id', '=', values.team).executeTakeFirst();
  if (!team) throw new UsageError(`No team ${values.team}.`);
  const keys = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'mode', 'role', 'prefix', 'created_at', 'revoked_at'])
    .where('team_id', '=', values.team)
    .orderBy('created_at')
    .execute();
  if (values.json) {
    print(JSON.stringify({ keys }));
    return;
  }
  for (const k of keys)
    print(
      `${k.prefix}…  ${k.mode.padEnd(4)}  ${k.role.padEnd(6)}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}  ${k.name}`,
    );
}
