import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { generateApiKey } from '../../../src/accounts/api-keys.js';
import { migration0001Accounts } from '../../../src/storage/migrations/0001_accounts.js';
import { migration0011Users } from '../../../src/storage/migrations/0011_users.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

const T = '2026-01-15T12:00:00.000Z';

/**
 * Migration 0015 on an install that already has keys: they become admin (they acted as admin before, and the
 * first-run keys must keep managing the team), with no known creator; the old test key still manages nothing.
 */
describe('migration 0015: existing keys keep working as admin', () => {
  let server: TestServer;
  const live = generateApiKey('live');
  const test = generateApiKey('test');

  before(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-key-roles-'));
    const old = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(path.join(dataDir, 'quire.sqlite')) }),
    });
    const migrations = { '0001_accounts': migration0001Accounts, '0011_users': migration0011Users };
    const result = await new Migrator({
      db: old,
      provider: { getMigrations: async () => migrations },
    }).migrateToLatest();
    assert.equal(result.error, undefined);
    await sql`insert into teams (id, name, plan, created_at) values ('t1', 'Old', 'growth', ${T})`.execute(
      old,
    );
    for (const [id, mode, key] of [
      ['k-live', 'live', live],
      ['k-test', 'test', test],
    ] as const) {
      await sql`insert into api_keys (id, team_id, name, mode, prefix, key_hash, created_at)
        values (${id}, 't1', ${`${mode} key`}, ${mode}, ${key.prefix}, ${key.hash}, ${T})`.execute(old);
    }
    await old.destroy();
    // SQLite on purpose: the install is built by hand at an old migration.
    server = await startTestServer({ dataDir, databaseUrl: null });
  });
  after(async () => server?.close());

  it('lists the old keys as admin with no creator; the live one manages keys, the test one does not', async () => {
    const listed = await api(server.base, 'GET', '/v1/keys', { key: live.key });
    assert.equal(listed.status, 200, listed.text);
    for (const k of listed.json.data) {
      assert.equal(k.role, 'admin', k.name);
      assert.equal(k.created_by, null, k.name);
    }
    const made = await api(server.base, 'POST', '/v1/keys', {
      key: live.key,
      body: { name: 'n', mode: 'live' },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.json.key.role, 'member');
    assert.deepEqual(made.json.key.created_by, { kind: 'key', id: 'k-live' });
    const refused = await api(server.base, 'POST', '/v1/keys', {
      key: test.key,
      body: { name: 'n', mode: 'test' },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.code, 'forbidden');
  });
});
