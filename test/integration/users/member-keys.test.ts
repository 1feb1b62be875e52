import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ApiResponse, api, type TestServer } from '../../helpers/server.js';
import { type Browser, makeUser, signIn as signInTest, startServerWithSink } from './dashboard.js';

/**
 * Who may list invitations, and the API keys a removed or demoted member leaves behind
 * (src/users/member-routes.ts, src/users/invitation-routes.ts): listed in the answer, revoked with
 * `revoke_keys`, working on otherwise.
 */
describe('invitations list for managers only; the keys of a removed or demoted member', () => {
  let server: TestServer;
  let closeAll: () => Promise<void>;
  before(async () => {
    ({ server, close: closeAll } = await startServerWithSink());
  });
  after(async () => closeAll?.());

  const call = (key: string, method: string, path: string, body?: unknown) =>
    api(server.base, method, path, { key, ...(body === undefined ? {} : { body }) });

  const signIn = async (email: string, mode: 'live' | 'test' = 'live'): Promise<Browser> => {
    const browser = await signInTest(server, email);
    const switched = await browser.call('PUT', '/v1/session/mode', { mode });
    assert.equal(switched.status, 200, switched.text);
    browser.session = switched.json;
    return browser;
  };

  const assertForbidden = (r: ApiResponse, label: string) => {
    assert.equal(r.status, 403, `${label}: ${r.text}`);
    assert.equal(r.json.error.code, 'forbidden', label);
  };

  /** A team with an owner and an admin who made a live admin key, a test key, and a key through that key. */
  const teamWithAdminKeys = async (tag: string) => {
    const team = await server.team('growth');
    await makeUser(server, team.team.id, 'owner', `owner@${tag}.example`);
    const admin = await makeUser(server, team.team.id, 'admin', `admin@${tag}.example`);
    const session = await signIn(`admin@${tag}.example`);
    const made = async (browserOrKey: Browser | string, body: Record<string, string>) => {
      const r =
        typeof browserOrKey === 'string'
          ? await call(browserOrKey, 'POST', '/v1/keys', body)
          : await browserOrKey.call('POST', '/v1/keys', body);
      assert.equal(r.status, 201, r.text);
      return { id: r.json.key.id as string, secret: r.json.secret as string };
    };
    const live = await made(session, { name: 'Automation', mode: 'live', role: 'admin' });
    const test = await made(session, { name: 'CI', mode: 'test' });
    const child = await made(live.secret, { name: 'Child', mode: 'live' });
    const owner = await signIn(`owner@${tag}.example`);
    return { team, admin, owner, keys: [live, test, child] };
  };

  const sortedIds = (keys: Array<{ id: string }>) => keys.map((k) => k.id).sort();

  const assertListed = (r: ApiResponse, made: Array<{ id: string; secret: string }>, revoked: boolean) => {
    assert.equal(r.status, 200, r.text);
    const listed = r.json.created_api_keys as Array<Record<string, unknown>>;
    assert.deepEqual(sortedIds(listed as Array<{ id: string }>), sortedIds(made));
    for (const key of listed) {
      assert.match(String(key.prefix), /^qk_(live|test)_/);
      assert.ok(key.mode === 'live' || key.mode === 'test');
      assert.equal(typeof key.name, 'string');
      assert.equal(key.revoked_at === null, !revoked, JSON.stringify(key));
      assert.ok(!('secret' in key) && !('key' in key), 'never the secret');
    }
    for (const { secret } of made) assert.ok(!r.text.includes(secret), 'no secret anywhere in the answer');
  };

  const keyWorks = async (secret: string) => (await call(secret, 'GET', '/v1/me')).status;

  it('lists invitations only to admin live keys and admin or owner sessions', async () => {
    const team = await server.team('growth');
    await makeUser(server, team.team.id, 'admin', 'admin@list.example');
    await makeUser(server, team.team.id, 'member', 'member@list.example');
    const memberKey = (await call(team.live, 'POST', '/v1/keys', { name: 'm', mode: 'live' })).json.secret;
    const invited = await call(team.live, 'POST', '/v1/members/invitations', {
      email: 'new@list.example',
      role: 'admin',
    });
    assert.equal(invited.status, 201, invited.text);
    const member = await signIn('member@list.example');

    assertForbidden(await call(team.test, 'GET', '/v1/members/invitations'), 'test key');
    assertForbidden(await call(memberKey, 'GET', '/v1/members/invitations'), 'member key');
    const bySession = await member.call('GET', '/v1/members/invitations');
    assertForbidden(bySession, 'member session');
    assert.match(bySession.json.error.message, /admin or owner role/);
    assert.ok(!bySession.text.includes('new@list.example'), 'the refusal shows no invitation');

    for (const [label, r] of [
      ['admin live key', await call(team.live, 'GET', '/v1/members/invitations')],
      ['admin session', await (await signIn('admin@list.example')).call('GET', '/v1/members/invitations')],
      [
        'admin session in test mode',
        await (await signIn('admin@list.example', 'test')).call('GET', '/v1/members/invitations'),
      ],
    ] as const) {
      assert.equal(r.status, 200, `${label}: ${r.text}`);
      assert.deepEqual(
        r.json.data.map((i: { email: string }) => i.email),
        ['new@list.example'],
        label,
      );
    }
    // The member list stays readable by everyone (its description: everyone reads).
    assert.equal((await member.call('GET', '/v1/members')).status, 200);
    assert.equal((await call(memberKey, 'GET', '/v1/members')).status, 200);
  });

  it('removing an admin lists the keys they made, which keep working without revoke_keys', async () => {
    const { admin, owner, keys } = await teamWithAdminKeys('keep');
    const removed = await owner.call('DELETE', `/v1/members/${admin.id}`);
    assertListed(removed, keys, false);
    assert.equal(removed.json.user_id, admin.id);
    assert.equal(removed.json.role, 'admin', 'the member as they were');
    for (const { secret } of keys) assert.equal(await keyWorks(secret), 200);
    const members = (await owner.call('GET', '/v1/members')).json.data as Array<{ user_id: string }>;
    assert.ok(!members.some((m) => m.user_id === admin.id), 'removed');
  });

  it('removing with ?revoke_keys=true revokes them in the same step: a revoked key gets 401', async () => {
    const { team, admin, owner, keys } = await teamWithAdminKeys('revoke');
    const removed = await owner.call('DELETE', `/v1/members/${admin.id}?revoke_keys=true`);
    assertListed(removed, keys, true);
    for (const { secret } of keys) {
      const r = await call(secret, 'GET', '/v1/me');
      assert.equal(r.status, 401, r.text);
      assert.equal(r.json.error.code, 'invalid_api_key');
    }
    assert.equal(await keyWorks(team.live), 200, 'the operator’s key is not theirs');
    const listed = (await owner.call('GET', '/v1/keys')).json.data as Array<{
      id: string;
      revoked_at: unknown;
    }>;
    for (const { id } of keys) assert.notEqual(listed.find((k) => k.id === id)?.revoked_at, null);
  });

  it('demoting with revoke_keys: true revokes them; without it they keep working', async () => {
    const kept = await teamWithAdminKeys('demote-keep');
    const demoted = await kept.owner.call('PUT', `/v1/members/${kept.admin.id}`, { role: 'member' });
    assertListed(demoted, kept.keys, false);
    assert.equal(demoted.json.role, 'member');
    for (const { secret } of kept.keys) assert.equal(await keyWorks(secret), 200);

    const { admin, owner, keys } = await teamWithAdminKeys('demote-revoke');
    const r = await owner.call('PUT', `/v1/members/${admin.id}`, { role: 'member', revoke_keys: true });
    assertListed(r, keys, true);
    assert.equal(r.json.role, 'member');
    for (const { secret } of keys) assert.equal(await keyWorks(secret), 401);
    // Nothing is left to revoke, so a second change lists nothing.
    const again = await owner.call('PUT', `/v1/members/${admin.id}`, { role: 'member', revoke_keys: true });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json.created_api_keys, []);
  });

  it('refuses revoke_keys sent in a DELETE body instead of silently keeping the keys', async () => {
    const { admin, owner, keys } = await teamWithAdminKeys('body');
    const r = await owner.call('DELETE', `/v1/members/${admin.id}`, { revoke_keys: true });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'invalid_request');
    assert.match(r.json.error.message, /\?revoke_keys=true/);
    const members = (await owner.call('GET', '/v1/members')).json.data as Array<{ user_id: string }>;
    assert.ok(
      members.some((m) => m.user_id === admin.id),
      'still a member',
    );
    for (const { secret } of keys) assert.equal(await keyWorks(secret), 200);
    const bad = await owner.call('DELETE', `/v1/members/${admin.id}?revoke_keys=maybe`);
    assert.equal(bad.status, 400, bad.text);
  });

  it('lets a test key or a member session revoke nothing through a member change', async () => {
    const { team, admin, keys } = await teamWithAdminKeys('refused');
    await makeUser(server, team.team.id, 'member', 'member@refused.example');
    const member = await signIn('member@refused.example');
    assertForbidden(await call(team.test, 'DELETE', `/v1/members/${admin.id}?revoke_keys=true`), 'test key');
    assertForbidden(
      await member.call('PUT', `/v1/members/${admin.id}`, { role: 'admin', revoke_keys: true }),
      'member session',
    );
    for (const { secret } of keys) assert.equal(await keyWorks(secret), 200);
  });
});
