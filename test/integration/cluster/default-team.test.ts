import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createTestDatabase } from '../../helpers/database.js';
import { kill, NEEDS_POSTGRES, SERVING, type Started, startQuire } from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

/** Kysely's migration lock on PostgreSQL (its PostgresAdapter's LOCK_ID): every starting process takes it first. */
const MIGRATION_LOCK = '3853314791062309107';

function client(url: string): pg.Client {
  const u = new URL(url);
  if (u.username === '') u.username = process.env.PGUSER ?? process.env.USER ?? 'postgres';
  return new pg.Client({ connectionString: u.toString() });
}

/**
 * Two `quire serve` processes started together on an empty PostgreSQL create exactly one
 * default team. The test holds the migration lock until both processes wait on it, so they leave the
 * migrations one right after the other and reach the first-run set-up together.
 */
describe('two quire serve on an empty PostgreSQL', { skip: NEEDS_POSTGRES }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const dirs: string[] = [];
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const twoServers = (url: string): Started[] =>
    [0, 1].map(() => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-default-team-'));
      dirs.push(dataDir);
      const env = {
        QUIRE_DATA_DIR: dataDir,
        QUIRE_DATABASE_URL: url,
        QUIRE_PORT: '0',
        QUIRE_LOG_LEVEL: 'warn',
        QUIRE_WORKERS: '0',
        QUIRE_RENDER_POOL_SIZE: '1',
      };
      return startQuire(env, ['serve'], SERVING);
    });

  it('both start, migrating once, when they reach the empty database together', async () => {
    const url = database.url as string;
    const holder = client(url);
    await holder.connect();
    await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK})`);
    const processes = twoServers(url);
    try {
      await waitForWaiters(holder, 2);
      await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK})`);
      await assertOneDefaultTeam(holder, processes);
    } finally {
      await holder.end();
      await Promise.all(processes.map(kill));
    }
  });

  it('create exactly one default team when both look for it at the same moment', async () => {
    const url = database.url as string;
    const holder = client(url);
    await holder.connect();
    await holder.query('truncate teams cascade'); // the first test's team and keys
    // The schema exists now; both processes' first look at `teams` waits on this lock until both are there.
    await holder.query('begin');
    await holder.query('lock table teams in access exclusive mode');
    const processes = twoServers(url);
    try {
      await waitForWaiters(holder, 2);
      await holder.query('commit');
      await assertOneDefaultTeam(holder, processes);
    } finally {
      await holder.end();
      await Promise.all(processes.map(kill));
    }
  });
});

async function assertOneDefaultTeam(holder: pg.Client, processes: Started[]): Promise<void> {
  const bases = (await Promise.all(processes.map((p) => p.ready))).map((m) => m[1] as string);

  const teams = await holder.query<{ name: string }>('select name from teams');
  assert.deepEqual(
    teams.rows.map((r) => r.name),
    ['Default team'],
  );
  const announced = processes.filter((p) => p.output().includes('Created the default team'));
  assert.equal(announced.length, 1, processes.map((p) => p.output()).join('\n---\n'));
  const liveKey = /Live key: (qk_live_\w+)/.exec(announced[0]?.output() ?? '')?.[1];
  assert.ok(liveKey);
  for (const base of bases) {
    const me = await api(base, 'GET', '/v1/me', { key: liveKey });
    assert.equal(me.status, 200, me.text);
  }
}

/** Waits until `count` sessions of this database wait on a lock (both processes reached the point). */
async function waitForWaiters(holder: pg.Client, count: number): Promise<void> {
  await waitUntil(
    `${count} processes to wait on a lock`,
    async () => {
      const { rows } = await holder.query<{ n: number }>(
        `select count(*)::int as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`,
      );
      return (rows[0]?.n ?? 0) >= count;
    },
    120_000,
  );
}
