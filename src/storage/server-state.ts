import type { Clock } from '../shared/clock.js';
import type { Db } from './db.js';

/** What a serving process records: the public URL it serves under (the bound port when none is configured). */
export type ServerStateName = 'public_url';

export interface ServerStateTables {
  server_state: { name: string; value: string; updated_at: string };
}

/** Records (or replaces) a fact about the serving process. */
export async function recordServerState(
  db: Db,
  clock: Clock,
  name: ServerStateName,
  value: string,
): Promise<void> {
  const updatedAt = clock.now().toISOString();
  await db
    .insertInto('server_state')
    .values({ name, value, updated_at: updatedAt })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: updatedAt }))
    .execute();
}

/** The last value a serving process recorded, or null when none has. */
export async function readServerState(db: Db, name: ServerStateName): Promise<string | null> {
  const row = await db.selectFrom('server_state').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value ?? null;
}
