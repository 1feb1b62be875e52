import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES } from '../../../src/shared/errors.js';
import { randomJson, rng } from '../../helpers/random.js';
import { api, type TestServer } from '../../helpers/server.js';
import type { SmtpSink } from '../../helpers/smtp-sink.js';
import { waitFor } from '../../helpers/wait.js';
import { type Browser, makeUser, readMail, signIn as signInTest, startServerWithSink } from './dashboard.js';

/**
 * Keys and roles: a key's power follows its mode and its role; invitations are bound to the invited
 * address, withdrawn with their creator's power, and counted against a daily quota per team.
 */
describe('key roles, test-key limits and invitations bound to their address', () => {
  const INVITATIONS_PER_DAY = 4;
  let server: TestServer;
  let sink: SmtpSink;
  before(async () => {
    ({ server, sink } = await startServerWithSink({
      allowPrivateWebhooks: true,
      invitationsPerDay: INVITATIONS_PER_DAY,
    }));
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  const call = (key: string, method: string, path: string, body?: unknown) =>
    api(server.base, method, path, { key, ...(body === undefined ? {} : { body }) });

  const signIn = async (email: string, mode: 'live' | 'test' = 'live'): Promise<Browser> => {
    const browser = await signInTest(server, email);
    const switched = await browser.call('PUT', '/v1/session/mode', { mode });
    assert.equal(switched.status, 200, switched.text);
    browser.session = switched.json;
    return browser;
  };

  const mailTo = (to: string) =>
    waitFor(
      `invitation mail to ${to}`,
      async () => {
        const hit = [...sink.messages].reverse().find((m) => m.to.includes(to));
        return hit ? readMail(hit.raw) : null;
      },
      20_000,
    );

  const memberId = async (browser: Browser, email: string): Promise<string> =>
    (await browser.call('GET', '/v1/members')).json.data.find((m: { email: string }) => m.email === email)
      .user_id;

  const assertForbidden = (
    r: { status: number; json: { error: { code: string; message: string } } },
    message: RegExp,
  ) => {
    assert.equal(r.status, 403, JSON.stringify(r.json));
    assert.equal(r.json.error.code, 'forbidden');
    assert.match(r.json.error.message, message);
  };

  it('refuses a test key every escalation: live keys, revoking, members, the cap, live webhooks', async () => {
    const team = await server.team('growth');
    const target = await makeUser(server, team.team.id, 'member', 'target@escalation.example');
    const keys = (await call(team.test, 'GET', '/v1/keys')).json.data as Array<{ id: string; mode: string }>;
    const liveKey = keys.find((k) => k.mode === 'live');
    assert.ok(liveKey, 'a test key still lists the keys');

    assertForbidden(await call(team.test, 'POST', '/v1/keys', { name: 'x', mode: 'live' }), /test key/);
    assertForbidden(await call(team.test, 'POST', '/v1/keys', { name: 'x', mode: 'test' }), /test key/);
    assertForbidden(await call(team.test, 'DELETE', `/v1/keys/${liveKey.id}`), /admin live key/);
    assertForbidden(
      await call(team.test, 'POST', '/v1/members/invitations', { email: 'evil@x.example', role: 'admin' }),
      /test key cannot invite members/,
    );
    assertForbidden(await call(team.test, 'PUT', `/v1/members/${target.id}`, { role: 'admin' }), /test key/);
    assertForbidden(await call(team.test, 'DELETE', `/v1/members/${target.id}`), /test key/);
    assertForbidden(
      await call(team.test, 'PUT', '/v1/account/spending-cap', { spending_cap_cents: 1 }),
      /owner/,
    );
    assertForbidden(
      await call(team.test, 'POST', '/v1/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: ['pdf.created'],
        mode: 'live',
      }),
      /test key cannot create live webhook/,
    );
    // Spec: a test key manages test endpoints.
    const testHook = await call(team.test, 'POST', '/v1/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['pdf.created'],
    });
    assert.equal(testHook.status, 201, testHook.text);
    assert.equal(testHook.json.mode, 'test');

    // Nothing happened: the live key works and no key or invitation was added.
    assert.equal((await call(team.live, 'GET', '/v1/me')).status, 200);
    assert.equal((await call(team.live, 'GET', '/v1/keys')).json.data.length, keys.length);
    assert.deepEqual((await call(team.live, 'GET', '/v1/members/invitations')).json.data, []);
  });

  it('gives API-made keys the member role: it reads and manages its mode’s webhooks, never keys or members', async () => {
    const team = await server.team('growth');
    const made = await call(team.live, 'POST', '/v1/keys', { name: 'CI', mode: 'live' });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.json.key.role, 'member', 'the default role');
    const member = made.json.secret as string;

    assert.equal((await call(member, 'GET', '/v1/keys')).status, 200);
    assert.equal((await call(member, 'GET', '/v1/members')).status, 200);
    assertForbidden(
      await call(member, 'POST', '/v1/keys', { name: 'up', mode: 'live', role: 'admin' }),
      /admin live key.*role is member/,
    );
    const operatorKey = (await call(member, 'GET', '/v1/keys')).json.data.find(
      (k: { created_by: unknown; mode: string }) => k.created_by === null && k.mode === 'live',
    );
    assertForbidden(await call(member, 'DELETE', `/v1/keys/${operatorKey.id}`), /role is member/);
    assertForbidden(
      await call(member, 'POST', '/v1/members/invitations', { email: 'a@x.example', role: 'member' }),
      /role is member/,
    );
    // Webhooks follow the key's mode, not its role (spec: a key manages its mode's endpoints).
    const hook = await call(member, 'POST', '/v1/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['pdf.created'],
    });
    assert.equal(hook.status, 201, hook.text);
    assert.equal(hook.json.mode, 'live');
  });

  it('lets an admin live key and an admin session manage keys; shows role and created_by', async () => {
    const team = await server.team('growth');
    const admin = await makeUser(server, team.team.id, 'admin', 'admin@roles.example');
    const list0 = (await call(team.live, 'GET', '/v1/keys')).json.data as Array<Record<string, unknown>>;
    const operatorLive = list0.find((k) => k.mode === 'live');
    assert.equal(operatorLive?.role, 'admin', 'team-create keys are admin');
    assert.equal(operatorLive?.created_by, null, 'made by the operator');

    const adminKey = await call(team.live, 'POST', '/v1/keys', {
      name: 'Provisioning',
      mode: 'live',
      role: 'admin',
    });
    assert.equal(adminKey.status, 201, adminKey.text);
    assert.deepEqual(adminKey.json.key.created_by, { kind: 'key', id: operatorLive?.id });
    const child = await call(adminKey.json.secret, 'POST', '/v1/keys', { name: 'child', mode: 'test' });
    assert.equal(child.status, 201, child.text);
    assert.equal(child.json.key.role, 'member');
    assert.equal((await call(adminKey.json.secret, 'DELETE', `/v1/keys/${child.json.key.id}`)).status, 200);

    const session = await signIn('admin@roles.example');
    const byUser = await session.call('POST', '/v1/keys', { name: 'mine', mode: 'live', role: 'admin' });
    assert.equal(byUser.status, 201, byUser.text);
    const listed = (await call(team.live, 'GET', '/v1/keys')).json.data as Array<Record<string, unknown>>;
    const shown = listed.find((k) => k.id === byUser.json.key.id);
    assert.equal(shown?.role, 'admin');
    assert.deepEqual(shown?.created_by, { kind: 'user', id: admin.id });
    assert.deepEqual(listed.find((k) => k.id === child.json.key.id)?.created_by, {
      kind: 'key',
      id: adminKey.json.key.id,
    });

    const testMode = await signIn('admin@roles.example', 'test');
    assertForbidden(
      await testMode.call('POST', '/v1/keys', { name: 'sneaky', mode: 'live' }),
      /test-mode dashboard session cannot create live keys/,
    );
    assert.equal((await testMode.call('POST', '/v1/keys', { name: 'ok', mode: 'test' })).status, 201);
  });

  it('binds an invitation to the invited address: another signed-in user cannot accept it', async () => {
    const team = await server.team('growth');
    await makeUser(server, team.team.id, 'owner', 'owner@bound.example');
    const other = await server.team('growth');
    await makeUser(server, other.team.id, 'owner', 'intruder@bound.example');
    await makeUser(server, other.team.id, 'member', 'invitee@bound.example');
    const owner = await signIn('owner@bound.example');
    const invited = await owner.call('POST', '/v1/members/invitations', {
      email: 'invitee@bound.example',
      role: 'admin',
    });
    assert.equal(invited.status, 201, invited.text);
    const { token } = await mailTo('invitee@bound.example');

    const intruder = await signIn('intruder@bound.example');
    const refused = await intruder.call('POST', '/v1/auth/invitation/accept', { token });
    assertForbidden(refused, /sent to another email address.*intruder@bound\.example/);
    assert.equal((await intruder.call('GET', '/v1/session')).json.team.id, other.team.id);
    const members = (await owner.call('GET', '/v1/members')).json.data as Array<{ email: string }>;
    assert.ok(!members.some((m) => m.email === 'intruder@bound.example'), 'the intruder did not join');

    const invitee = await signIn('invitee@bound.example');
    const joined = await invitee.call('POST', '/v1/auth/invitation/accept', { token });
    assert.equal(joined.status, 200, joined.text);
    assert.equal(joined.json.team.id, team.team.id);
    assert.equal(joined.json.role, 'admin');
  });

  it('withdraws invitations when their creator is demoted, removed, or (a key) revoked', async () => {
    const team = await server.team('growth');
    await makeUser(server, team.team.id, 'owner', 'owner@withdraw.example');
    await makeUser(server, team.team.id, 'admin', 'demoted@withdraw.example');
    await makeUser(server, team.team.id, 'admin', 'removed@withdraw.example');
    const owner = await signIn('owner@withdraw.example');
    const inviteAs = async (browser: Browser | string, email: string) => {
      const body = { email, role: 'member' };
      const r =
        typeof browser === 'string'
          ? await call(browser, 'POST', '/v1/members/invitations', body)
          : await browser.call('POST', '/v1/members/invitations', body);
      assert.equal(r.status, 201, r.text);
      return { id: r.json.id as string, token: (await mailTo(email)).token };
    };
    const open = async () =>
      ((await owner.call('GET', '/v1/members/invitations')).json.data as Array<{ id: string }>).map(
        (i) => i.id,
      );
    const acceptAsNew = (token: string) =>
      api(server.base, 'POST', '/v1/auth/invitation', { body: { token, password: 'a long password' } });

    const byDemoted = await inviteAs(await signIn('demoted@withdraw.example'), 'd@new.example');
    const byRemoved = await inviteAs(await signIn('removed@withdraw.example'), 'r@new.example');
    const adminKey = await call(team.live, 'POST', '/v1/keys', { name: 'k', mode: 'live', role: 'admin' });
    const byKey = await inviteAs(adminKey.json.secret, 'k@new.example');
    assert.deepEqual((await open()).sort(), [byDemoted.id, byRemoved.id, byKey.id].sort());

    const demote = await owner.call(
      'PUT',
      `/v1/members/${await memberId(owner, 'demoted@withdraw.example')}`,
      { role: 'member' },
    );
    assert.equal(demote.status, 200, demote.text);
    const remove = await owner.call(
      'DELETE',
      `/v1/members/${await memberId(owner, 'removed@withdraw.example')}`,
    );
    assert.equal(remove.status, 200);
    assert.equal((await owner.call('DELETE', `/v1/keys/${adminKey.json.key.id}`)).status, 200);

    assert.deepEqual(await open(), [], 'none of the three is open any more');
    for (const { token } of [byDemoted, byRemoved, byKey]) {
      const r = await acceptAsNew(token);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.code, 'invalid_token');
    }
    // The owner's own invitation is untouched by all this.
    const byOwner = await inviteAs(owner, 'o@new.example');
    assert.equal((await acceptAsNew(byOwner.token)).status, 200);
  });

  it('counts invitation emails per team per day, withdrawn ones too, then answers email_limit_reached', async () => {
    const team = await server.team('growth');
    const invite = (email: string) =>
      call(team.live, 'POST', '/v1/members/invitations', { email, role: 'member' });
    const first = await invite('q1@quota.example');
    assert.equal(first.status, 201);
    assert.equal((await call(team.live, 'DELETE', `/v1/members/invitations/${first.json.id}`)).status, 204);
    for (let i = 2; i <= INVITATIONS_PER_DAY; i++) {
      assert.equal((await invite(`q${i}@quota.example`)).status, 201);
    }
    const over = await invite('over@quota.example');
    assert.equal(over.status, 429, over.text);
    assert.equal(over.json.error.code, 'email_limit_reached');
    assert.deepEqual(over.json.error.details, { limit: 'invitations_per_day', max: INVITATIONS_PER_DAY });
    assert.match(over.json.error.message, /QUIRE_INVITATIONS_PER_DAY/);
    const retryAfter = Number(over.headers.get('retry-after'));
    assert.ok(retryAfter > 23 * 3600 && retryAfter <= 24 * 3600, `retry-after ${retryAfter}`);
    assert.ok(!sink.messages.some((m) => m.to.includes('over@quota.example')), 'no email was sent');
    // Another team's quota is its own.
    const other = await server.team('growth');
    const elsewhere = await call(other.live, 'POST', '/v1/members/invitations', {
      email: 'fine@quota.example',
      role: 'member',
    });
    assert.equal(elsewhere.status, 201);
  });

  it('property: no body gets a test key or a member key a new key or an invitation; an admin live key gets exactly the valid ones', async () => {
    const team = await server.team('pro');
    const member = (await call(team.live, 'POST', '/v1/keys', { name: 'm', mode: 'live' })).json.secret;
    const admin = (await call(team.live, 'POST', '/v1/keys', { name: 'a', mode: 'live', role: 'admin' })).json
      .secret;
    const r = rng(20261126);
    const keyBody = () =>
      r.next() < 0.5
        ? randomJson(r, 0, ['name', 'mode', 'role'])
        : {
            name: r.pick(['CI', '', ' ', 'x'.repeat(101), 'ok']),
            mode: r.pick(['live', 'test', 'LIVE', null]),
            ...(r.next() < 0.7 ? { role: r.pick(['admin', 'member', 'owner', '', 1]) } : {}),
          };
    const valid = (body: unknown): boolean => {
      if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
      const b = body as Record<string, unknown>;
      const allowed = new Set(['name', 'mode', 'role']);
      if (Object.keys(b).some((k) => !allowed.has(k))) return false;
      const nameOk = typeof b.name === 'string' && b.name.length >= 1 && b.name.length <= 100;
      const roleOk = b.role === undefined || b.role === 'admin' || b.role === 'member';
      return nameOk && (b.mode === 'live' || b.mode === 'test') && roleOk;
    };
    const count = async () => (await call(team.live, 'GET', '/v1/keys')).json.data.length;
    const before = await count();
    let made = 0;
    for (let i = 0; i < 40; i++) {
      const body = keyBody();
      const label = JSON.stringify(body)?.slice(0, 120);
      // Test keys have 20 requests a minute: they take the first bodies only.
      for (const key of i < 8 ? [team.test, member] : [member]) {
        const res = await call(key, 'POST', '/v1/keys', body);
        assert.ok(res.status === 400 || res.status === 403, `${label} → ${res.status}`);
        assert.ok(Object.hasOwn(ERROR_CODES, res.json.error.code), label);
        const invite = await call(
          key,
          'POST',
          '/v1/members/invitations',
          randomJson(r, 0, ['email', 'role']),
        );
        assert.ok(invite.status === 400 || invite.status === 403, `invitation → ${invite.status}`);
      }
      const res = await call(admin, 'POST', '/v1/keys', body);
      assert.equal(res.status, valid(body) ? 201 : 400, `${label} → ${res.status} ${res.text.slice(0, 200)}`);
      if (res.status === 201) {
        made++;
        assert.equal(res.json.key.role, (body as { role?: string }).role ?? 'member');
      }
    }
    assert.equal(await count(), before + made, 'only the admin live key made keys');
    assert.deepEqual((await call(team.live, 'GET', '/v1/members/invitations')).json.data, []);
  });
});
