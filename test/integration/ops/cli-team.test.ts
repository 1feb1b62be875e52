import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
// Its main(argv) in this process: these tests read the output and the database, not the process.
import { quireInProcess as quire } from '../../helpers/quire-process.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';

describe('quire key list, team delete and email checks (real CLI against a running server)', () => {
  let server: TestServer;
  let team: TestTeam;
  let env: Record<string, string>;
  before(async () => {
    server = await startTestServer();
    team = await server.team('growth');
    // The CLI reaches the server's database, SQLite in its data directory or PostgreSQL on the PG pass.
    env = { QUIRE_DATA_DIR: server.config.dataDir, QUIRE_DATABASE_URL: server.config.databaseUrl ?? '' };
  });
  after(async () => server.close());

  it('key list --json lists prefixes and modes, never keys', async () => {
    const result = await quire(env, 'key', 'list', '--team', team.team.id, '--json');
    assert.equal(result.code, 0, result.stderr);
    const { keys } = JSON.parse(result.stdout);
    assert.deepEqual(keys.map((k: { mode: string }) => k.mode).sort(), ['live', 'test']);
    assert.ok(
      keys.every((k: { prefix: string }) => team.live.startsWith(k.prefix) || team.test.startsWith(k.prefix)),
    );
    assert.ok(!result.stdout.includes(team.live));
    const missing = await quire(env, 'key', 'list');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--team TEAM_ID is required/);
  });

  it('key list and team list print tables with a header line and UTC dates', async () => {
    const keys = await quire(env, 'key', 'list', '--team', team.team.id);
    assert.equal(keys.code, 0, keys.stderr);
    const [header, ...rows] = keys.stdout.trimEnd().split('\n');
    assert.match(header ?? '', /^PREFIX\s+MODE\s+ROLE\s+STATUS\s+CREATED\s+REVOKED\s+NAME$/);
    assert.equal(rows.length, 2, keys.stdout);
    for (const row of rows)
      assert.match(
        row,
        /^qk_(live|test)_\S*…\s+(live|test)\s+admin\s+active\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+-/,
      );
    const teams = await quire(env, 'team', 'list');
    assert.equal(teams.code, 0, teams.stderr);
    const lines = teams.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^ID\s+PLAN\s+STATUS\s+EMAIL\s+CREATED\s+NAME$/);
    const row = lines.find((line) => line.startsWith(team.team.id)) ?? '';
    assert.match(row, /\sgrowth\s+active\s+.*\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });

  it('--json on the commands that change a team or a key prints what changed', async () => {
    const other = await server.team('free');
    const suspended = await quire(env, 'team', 'suspend', other.team.id, '--json');
    assert.equal(suspended.code, 0, suspended.stderr);
    assert.equal(JSON.parse(suspended.stdout).team.suspended, true);
    const moved = await quire(env, 'team', 'set-plan', other.team.id, 'pro', '--json');
    assert.equal(JSON.parse(moved.stdout).team.plan, 'pro');
    const revoked = await quire(env, 'key', 'revoke', other.test, '--json');
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.deepEqual(JSON.parse(revoked.stdout), { revoked: true, prefix: other.test.slice(0, 12) });
  });

  it('team create refuses an address that is not an email', async () => {
    const result = await quire(
      env,
      'team',
      'create',
      '--name',
      'X',
      '--plan',
      'free',
      '--email',
      'not-an-address',
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--email "not-an-address" is not an email address/);
  });

  it('team delete refuses without --yes, then erases the team, its rows and its files', async () => {
    const made = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: '<p>to be erased</p>', response: 'url' },
    });
    assert.equal(made.status, 200, made.text);
    const { db } = server.built.services;
    const doc = await db
      .selectFrom('documents')
      .select('blob_key')
      .where('id', '=', made.json.id)
      .executeTakeFirstOrThrow();
    const file = path.join(server.config.dataDir, 'blobs', doc.blob_key ?? '');
    assert.ok(existsSync(file));

    const refused = await quire(env, 'team', 'delete', team.team.id);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /without --yes/);
    assert.equal((await api(server.base, 'GET', '/v1/me', { key: team.live })).status, 200);

    const deleted = await quire(env, 'team', 'delete', team.team.id, '--yes');
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /deleted \(\d+ records, 1 stored files\)/);
    assert.equal(existsSync(file), false);
    assert.equal((await api(server.base, 'GET', '/v1/me', { key: team.live })).status, 401);
    for (const table of ['documents', 'api_keys', 'teams'] as const) {
      const column = table === 'teams' ? 'id' : 'team_id';
      const left = await db.selectFrom(table).select(column).where(column, '=', team.team.id).execute();
      assert.equal(left.length, 0, table);
    }
    const again = await quire(env, 'team', 'delete', team.team.id, '--yes');
    assert.equal(again.code, 2);
    assert.match(again.stderr, /No team/);
  });
});
