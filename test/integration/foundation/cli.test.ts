import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  kill,
  quireInProcess,
  type Serving,
  serveQuire,
  sqliteDataDir,
} from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';

describe('the quire CLI against a running server process', () => {
  const { env, remove } = sqliteDataDir('quire-cli-', { QUIRE_WORKERS: '0' });
  let server: Serving;
  let base = '';
  let firstRunOutput = '';

  // The server is a real process; the commands run main(argv) here (their output and the database are what count).
  const quire = async (...args: string[]) => {
    const result = await quireInProcess(env, ...args);
    assert.equal(result.code, 0, `quire ${args.join(' ')}: ${result.stderr}`);
    return result.stdout.trim();
  };
  const quireFails = async (...args: string[]) => {
    const result = await quireInProcess(env, ...args);
    assert.notEqual(result.code, 0, `quire ${args.join(' ')} should have failed`);
    return result;
  };

  before(async () => {
    server = await serveQuire(env);
    base = server.base;
    firstRunOutput = server.output();
  });
  after(async () => {
    if (server) await kill(server);
    remove();
  });

  it('creates a default team on first run and prints its keys once', async () => {
    const live = /Live key: (qk_live_\w+)/.exec(firstRunOutput)?.[1];
    const test = /Test key: (qk_test_\w+)/.exec(firstRunOutput)?.[1];
    assert.ok(live && test, firstRunOutput);
    const me = await api(base, 'GET', '/v1/me', { key: live });
    assert.equal(me.status, 200);
    assert.equal(me.json.team.plan, 'scale');
  });

  it('team create --json prints the contract JSON whose keys authenticate', async () => {
    const out = JSON.parse(await quire('team', 'create', '--name', 'Acme', '--plan', 'growth', '--json'));
    assert.deepEqual(Object.keys(out).sort(), ['keys', 'team']);
    assert.deepEqual(Object.keys(out.team).sort(), ['id', 'name', 'plan']);
    assert.equal(out.team.name, 'Acme');
    assert.equal(out.team.plan, 'growth');
    assert.match(out.keys.live, /^qk_live_/);
    assert.match(out.keys.test, /^qk_test_/);
    const me = await api(base, 'GET', '/v1/me', { key: out.keys.live });
    assert.equal(me.status, 200);
    assert.equal(me.json.team.id, out.team.id);
    assert.equal((await api(base, 'GET', '/v1/me', { key: out.keys.test })).json.key.mode, 'test');
  });

  it('suspends, unsuspends, changes plan, lists, creates and revokes keys while the server runs', async () => {
    const { team, keys } = JSON.parse(
      await quire(
        'team',
        'create',
        '--name',
        'Beta',
        '--plan',
        'free',
        '--email-verified',
        '--email',
        'a@b.example',
        '--json',
      ),
    );
    await quire('team', 'suspend', team.id);
    assert.equal((await api(base, 'GET', '/v1/me', { key: keys.live })).status, 403);
    await quire('team', 'unsuspend', team.id);
    assert.equal((await api(base, 'GET', '/v1/me', { key: keys.live })).status, 200);
    await quire('team', 'set-plan', team.id, 'pro');
    assert.equal((await api(base, 'GET', '/v1/me', { key: keys.live })).json.plan.id, 'pro');
    const list = JSON.parse(await quire('team', 'list', '--json'));
    assert.ok(list.teams.some((t: { id: string; plan: string }) => t.id === team.id && t.plan === 'pro'));
    const created = JSON.parse(await quire('key', 'create', '--team', team.id, '--mode', 'test', '--json'));
    assert.match(created.key, /^qk_test_/);
    assert.equal(created.role, 'admin', 'operator keys are admin unless --role member');
    const member = JSON.parse(
      await quire('key', 'create', '--team', team.id, '--mode', 'live', '--role', 'member', '--json'),
    );
    assert.equal(member.role, 'member');
    const refused = await api(base, 'POST', '/v1/keys', {
      key: member.key,
      body: { name: 'x', mode: 'test' },
    });
    assert.equal(refused.status, 403, 'a member key manages no keys');
    assert.equal((await api(base, 'GET', '/v1/me', { key: created.key })).json.key.mode, 'test');
    await quire('key', 'revoke', created.key);
    assert.equal((await api(base, 'GET', '/v1/me', { key: created.key })).status, 401);
    await quire('key', 'revoke', keys.live.slice(0, 12));
    assert.equal((await api(base, 'GET', '/v1/me', { key: keys.live })).status, 401);
  });

  it('refuses bad arguments with exit code 2 and a message', async () => {
    const badPlan = await quireFails('team', 'create', '--name', 'X', '--plan', 'gold', '--json');
    assert.equal(badPlan.code, 2);
    assert.match(badPlan.stderr, /plan/);
    assert.equal((await quireFails('team', 'suspend', '00000000-0000-4000-8000-000000000000')).code, 2);
    assert.equal((await quireFails('key', 'create', '--team', 'x', '--mode', 'root')).code, 2);
    const badRole = await quireFails('key', 'create', '--team', 'x', '--mode', 'live', '--role', 'owner');
    assert.equal(badRole.code, 2);
    assert.match(badRole.stderr, /--role must be admin or member/);
  });

  it('shuts down gracefully on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    assert.equal(await server.exit, 0);
  });
});
