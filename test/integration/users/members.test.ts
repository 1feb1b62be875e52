import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api,
  createTestSignInLink,
  signInToken,
  type TestServer,
  type TestTeam,
} from '../../helpers/server.js';
import type { SmtpSink } from '../../helpers/smtp-sink.js';
import { waitFor } from '../../helpers/wait.js';
import {
  type Browser,
  browserFrom,
  makeUser,
  readMail,
  signIn as signInTest,
  startServerWithSink,
} from './dashboard.js';

describe('dashboard roles, keys, members, invitations, password reset and email verification', () => {
  let server: TestServer;
  let team: TestTeam;
  let sink: SmtpSink;
  before(async () => {
    ({ server, sink } = await startServerWithSink({
      allowPrivateWebhooks: true,
    }));
    team = await server.team('growth');
    await makeUser(server, team.team.id, 'owner', 'owner@team.example');
    await makeUser(server, team.team.id, 'admin', 'admin@team.example');
    await makeUser(server, team.team.id, 'member', 'member@team.example');
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  /** Signs in and switches to live mode (member management is the same in both modes). */
  const signIn = async (s: TestServer, email: string, password?: string): Promise<Browser> => {
    const browser = await signInTest(s, email, password);
    const live = await browser.call('PUT', '/v1/session/mode', { mode: 'live' });
    assert.equal(live.status, 200);
    browser.session = live.json;
    return browser;
  };

  /** The newest message to `to` with this subject, once it arrives. */
  const mailTo = (to: string, subject: string) =>
    waitFor(
      `mail "${subject}" to ${to}`,
      async () => {
        const hit = [...sink.messages]
          .reverse()
          .find((m) => m.to.includes(to) && readMail(m.raw).subject === subject);
        return hit ? readMail(hit.raw) : null;
      },
      20_000,
    );

  it('lets a member render and read but not create keys or webhooks (403 naming the role)', async () => {
    const member = await signIn(server, 'member@team.example');
    assert.equal((await member.call('POST', '/v1/pdf', { html: '<p>member</p>' })).status, 200);
    assert.equal((await member.call('GET', '/v1/keys')).status, 200);
    assert.equal((await member.call('GET', '/v1/webhooks')).status, 200);
    assert.equal((await member.call('GET', '/v1/members')).status, 200);
    for (const [path, body] of [
      ['/v1/keys', { name: 'mine', mode: 'test' }],
      ['/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['pdf.created'] }],
      ['/v1/members/invitations', { email: 'friend@example.com', role: 'member' }],
    ] as const) {
      const r = await member.call('POST', path, body);
      assert.equal(r.status, 403, path);
      assert.equal(r.json.error.code, 'forbidden');
      assert.match(r.json.error.message, /admin or owner role/);
    }
    const cap = await member.call('PUT', '/v1/account/spending-cap', { spending_cap_cents: 100 });
    assert.equal(cap.status, 403);
    const admin = await signIn(server, 'admin@team.example');
    const adminCap = await admin.call('PUT', '/v1/account/spending-cap', { spending_cap_cents: 100 });
    assert.equal(adminCap.status, 403, 'the spending cap is for owners');
    assert.match(adminCap.json.error.message, /owner role/);
    const webhook = await admin.call('POST', '/v1/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['pdf.created'],
    });
    assert.equal(webhook.status, 201, webhook.text);
    const owner = await signIn(server, 'owner@team.example');
    const set = await owner.call('PUT', '/v1/account/spending-cap', { spending_cap_cents: 2500 });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.json.spending_cap_cents, 2500);
    const cleared = await owner.call('PUT', '/v1/account/spending-cap', { spending_cap_cents: null });
    assert.equal(cleared.json.spending_cap_cents, null);
  });

  it('creates, lists and revokes keys; a revoked key gets invalid_api_key; a key cannot revoke itself', async () => {
    const admin = await signIn(server, 'admin@team.example');
    const created = await admin.call('POST', '/v1/keys', { name: 'CI', mode: 'live', role: 'admin' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.key.role, 'admin');
    assert.match(created.json.secret, /^qk_live_[0-9A-Za-z]{32}$/);
    assert.equal(created.json.key.name, 'CI');
    assert.equal(created.json.key.prefix, created.json.secret.slice(0, 12));
    assert.equal(created.json.key.revoked_at, null);
    assert.equal((await api(server.base, 'GET', '/v1/me', { key: created.json.secret })).status, 200);
    const list = await admin.call('GET', '/v1/keys');
    assert.ok(list.json.data.some((k: { id: string }) => k.id === created.json.key.id));
    assert.ok(!list.text.includes(created.json.secret), 'the list never shows a secret');

    const self = await api(server.base, 'DELETE', `/v1/keys/${created.json.key.id}`, {
      key: created.json.secret,
    });
    assert.equal(self.status, 403);
    assert.match(self.json.error.message, /cannot revoke itself/);
    const revoked = await admin.call('DELETE', `/v1/keys/${created.json.key.id}`);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.json.revoked_at);
    const refused = await api(server.base, 'GET', '/v1/me', { key: created.json.secret });
    assert.equal(refused.status, 401);
    assert.equal(refused.json.error.code, 'invalid_api_key');
    // A bearer key manages keys too.
    const byKey = await api(server.base, 'POST', '/v1/keys', {
      key: team.live,
      body: { name: 'k', mode: 'test' },
    });
    assert.equal(byKey.status, 201);
    const other = await server.team('growth');
    const foreign = await admin.call(
      'DELETE',
      `/v1/keys/${(await api(server.base, 'GET', '/v1/keys', { key: other.live })).json.data[0].id}`,
    );
    assert.equal(foreign.status, 404, 'another team’s key is not found');
  });

  it('invites by email; the invitee accepts with a password and is signed in as member', async () => {
    const admin = await signIn(server, 'admin@team.example');
    const invited = await admin.call('POST', '/v1/members/invitations', {
      email: 'New@Example.com',
      role: 'member',
    });
    assert.equal(invited.status, 201, invited.text);
    assert.equal(invited.json.email, 'new@example.com');
    assert.equal(invited.json.role, 'member');
    const open = await admin.call('GET', '/v1/members/invitations');
    assert.ok(open.json.data.some((i: { id: string }) => i.id === invited.json.id));

    const mail = await mailTo('new@example.com', `You're invited to ${team.team.name} on Quire`);
    assert.match(mail.link, /\/app\/#\/auth\/invite\?token=/);
    const short = await api(server.base, 'POST', '/v1/auth/invitation', {
      body: { token: mail.token, password: 'x' },
    });
    assert.equal(short.status, 400, 'a bad password does not use the invitation up');
    const accepted = await api(server.base, 'POST', '/v1/auth/invitation', {
      body: { token: mail.token, password: 'invitee password' },
    });
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.json.role, 'member');
    assert.equal(accepted.json.team.id, team.team.id);
    assert.equal(accepted.json.user.email_verified, true);
    const invitee = browserFrom(server, accepted);
    assert.equal((await invitee.call('GET', '/v1/me')).status, 200);
    const reuse = await api(server.base, 'POST', '/v1/auth/invitation', {
      body: { token: mail.token, password: 'invitee password' },
    });
    assert.equal(reuse.json.error.code, 'invalid_token');
    const members = await admin.call('GET', '/v1/members');
    assert.ok(
      members.json.data.some(
        (m: { email: string; role: string }) => m.email === 'new@example.com' && m.role === 'member',
      ),
    );

    const again = await admin.call('POST', '/v1/members/invitations', {
      email: 'new@example.com',
      role: 'admin',
    });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, 'email_taken');
  });

  it('answers email_taken to an invitation for an existing account, which accepts while signed in', async () => {
    const elsewhere = await server.team('growth');
    await makeUser(server, elsewhere.team.id, 'owner', 'multi@example.com');
    const admin = await signIn(server, 'admin@team.example');
    await admin.call('POST', '/v1/members/invitations', { email: 'multi@example.com', role: 'admin' });
    const mail = await mailTo('multi@example.com', `You're invited to ${team.team.name} on Quire`);
    const taken = await api(server.base, 'POST', '/v1/auth/invitation', {
      body: { token: mail.token, password: 'some long password' },
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.json.error.code, 'email_taken');
    const multi = await signIn(server, 'multi@example.com');
    assert.equal(multi.session.team.id, elsewhere.team.id, 'signs into the oldest membership');
    const joined = await multi.call('POST', '/v1/auth/invitation/accept', { token: mail.token });
    assert.equal(joined.status, 200, joined.text);
    assert.equal(joined.json.team.id, team.team.id);
    assert.equal(joined.json.role, 'admin');
    const back = await multi.call('PUT', '/v1/session/team', { team_id: elsewhere.team.id });
    assert.equal(back.json.role, 'owner');
    const notMine = await multi.call('PUT', '/v1/session/team', { team_id: (await server.team()).team.id });
    assert.equal(notMine.status, 403);
  });

  it('keeps at least one owner and lets only owners make owners', async () => {
    const owner = await signIn(server, 'owner@team.example');
    const admin = await signIn(server, 'admin@team.example');
    const list = (await owner.call('GET', '/v1/members')).json.data as Array<{
      user_id: string;
      email: string;
    }>;
    const id = (email: string) => list.find((m) => m.email === email)?.user_id ?? '';
    const demote = await owner.call('PUT', `/v1/members/${id('owner@team.example')}`, { role: 'admin' });
    assert.equal(demote.status, 403);
    assert.equal(demote.json.error.message, 'A team needs at least one owner.');
    const remove = await owner.call('DELETE', `/v1/members/${id('owner@team.example')}`);
    assert.equal(remove.json.error.message, 'A team needs at least one owner.');
    const promote = await admin.call('PUT', `/v1/members/${id('member@team.example')}`, { role: 'owner' });
    assert.equal(promote.status, 403, 'admins cannot make owners');
    const toAdmin = await admin.call('PUT', `/v1/members/${id('member@team.example')}`, { role: 'admin' });
    assert.equal(toAdmin.status, 200);
    assert.equal(toAdmin.json.role, 'admin');
    const back = await owner.call('PUT', `/v1/members/${id('member@team.example')}`, { role: 'member' });
    assert.equal(back.json.role, 'member');

    await makeUser(server, team.team.id, 'member', 'leaving@team.example');
    const leaving = await signIn(server, 'leaving@team.example');
    const leavingId = (await owner.call('GET', '/v1/members')).json.data.find(
      (m: { email: string }) => m.email === 'leaving@team.example',
    ).user_id;
    assert.equal((await admin.call('DELETE', `/v1/members/${leavingId}`)).status, 200);
    assert.equal(
      (await leaving.call('GET', '/v1/me')).json.error.code,
      'unauthenticated',
      'their session ends',
    );
    const inv = await admin.call('POST', '/v1/members/invitations', {
      email: 'gone@example.com',
      role: 'member',
    });
    assert.equal((await admin.call('DELETE', `/v1/members/invitations/${inv.json.id}`)).status, 204);
    assert.equal((await admin.call('DELETE', `/v1/members/invitations/${inv.json.id}`)).status, 404);
  });

  it('resets a password by emailed single-use token, signing in and ending other sessions', async () => {
    await makeUser(server, team.team.id, 'member', 'forgetful@team.example');
    const before = await signIn(server, 'forgetful@team.example');
    const unknown = await api(server.base, 'POST', '/v1/auth/password-reset', {
      body: { email: 'nobody@x.example' },
    });
    assert.equal(unknown.status, 202);
    assert.deepEqual(unknown.json, {});
    const asked = await api(server.base, 'POST', '/v1/auth/password-reset', {
      body: { email: 'forgetful@team.example' },
    });
    assert.equal(asked.status, 202);
    const mail = await mailTo('forgetful@team.example', 'Reset your Quire password');
    assert.match(mail.link, /\/app\/#\/auth\/reset\?token=/);
    const reset = await api(server.base, 'POST', '/v1/auth/password-reset/confirm', {
      body: { token: mail.token, password: 'remembered at last' },
    });
    assert.equal(reset.status, 200, reset.text);
    assert.ok(reset.headers.get('set-cookie')?.startsWith('quire_session='));
    assert.equal((await before.call('GET', '/v1/session')).json.error.code, 'unauthenticated');
    const reuse = await api(server.base, 'POST', '/v1/auth/password-reset/confirm', {
      body: { token: mail.token, password: 'another password!' },
    });
    assert.equal(reuse.status, 400);
    assert.equal(reuse.json.error.code, 'invalid_token');
    assert.equal(
      (await signIn(server, 'forgetful@team.example', 'remembered at last')).session.role,
      'member',
    );
  });

  it('sends a verification email after a sign-in link; the token verifies once', async () => {
    const link = await createTestSignInLink(server, 'unverified@team.example', team.team.id, 'member');
    const token = signInToken(link.sign_in_url);
    const signedIn = await api(server.base, 'POST', '/v1/auth/link', { body: { token } });
    assert.equal(signedIn.json.user.email_verified, false);
    const mail = await mailTo('unverified@team.example', 'Verify your email for Quire');
    assert.match(mail.link, /\/app\/#\/auth\/verify\?token=/);
    const verified = await api(server.base, 'POST', '/v1/auth/verify-email', { body: { token: mail.token } });
    assert.equal(verified.status, 200);
    assert.deepEqual(verified.json, { email_verified: true });
    const reuse = await api(server.base, 'POST', '/v1/auth/verify-email', { body: { token: mail.token } });
    assert.equal(reuse.json.error.code, 'invalid_token');
    const session = await browserFrom(server, signedIn).call('GET', '/v1/session');
    assert.equal(session.json.user.email_verified, true);
    const wrongKind = await api(server.base, 'POST', '/v1/auth/link', { body: { token: mail.token } });
    assert.equal(wrongKind.json.error.code, 'invalid_token', 'a token works only for its purpose');
  });
});
