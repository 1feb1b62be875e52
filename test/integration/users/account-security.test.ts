import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestSignInLink, signInToken, type TestServer } from '../../helpers/server.js';
import type { SmtpSink } from '../../helpers/smtp-sink.js';
import { waitFor } from '../../helpers/wait.js';
import { type Browser, makeUser, PASSWORD, readMail, signIn, startServerWithSink } from './dashboard.js';

/** What a new password revokes, superseded reset links, and the last owner under concurrency. */
describe('dashboard account security: token revocation and the last owner', () => {
  let server: TestServer;
  let sink: SmtpSink;
  before(async () => {
    ({ server, sink } = await startServerWithSink());
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  /** The tokens of every reset mail `to` has received, oldest first. */
  const resetTokens = (to: string) =>
    sink.messages
      .filter((m) => m.to.includes(to) && readMail(m.raw).subject === 'Reset your Quire password')
      .map((m) => readMail(m.raw).token);

  /** Asks for a reset link and waits for its mail: the token. */
  async function requestReset(email: string): Promise<string> {
    const before = resetTokens(email).length;
    const asked = await api(server.base, 'POST', '/v1/auth/password-reset', { body: { email } });
    assert.equal(asked.status, 202);
    return waitFor(
      `reset mail ${before + 1} to ${email}`,
      async () => resetTokens(email)[before] ?? null,
      20_000,
    );
  }

  async function signInLink(email: string, teamId: string): Promise<string> {
    const link = await createTestSignInLink(server, email, teamId, 'member');
    return signInToken(link.sign_in_url);
  }

  const confirmReset = (token: string, password: string) =>
    api(server.base, 'POST', '/v1/auth/password-reset/confirm', { body: { token, password } });

  it('a new reset request supersedes the previous link', async () => {
    const team = await server.team('growth');
    await makeUser(server, team.team.id, 'member', 'twice@reset.example');
    const first = await requestReset('twice@reset.example');
    const second = await requestReset('twice@reset.example');
    assert.notEqual(first, second);
    const stale = await confirmReset(first, 'chosen from the old link');
    assert.equal(stale.status, 400);
    assert.equal(stale.json.error.code, 'invalid_token');
    assert.equal((await confirmReset(second, 'chosen from the new link')).status, 200);
  });

  it('a password change ends every other session and every outstanding reset and sign-in link', async () => {
    const team = await server.team('growth');
    await makeUser(server, team.team.id, 'member', 'changer@reset.example');
    const here = await signIn(server, 'changer@reset.example');
    const elsewhere = await signIn(server, 'changer@reset.example');
    const link = await signInLink('changer@reset.example', team.team.id);
    const reset = await requestReset('changer@reset.example');

    const changed = await here.call('PUT', '/v1/auth/password', {
      password: 'a changed password',
      current_password: PASSWORD,
    });
    assert.equal(changed.status, 200, changed.text);

    const other = await elsewhere.call('GET', '/v1/session');
    assert.equal(other.status, 401);
    assert.equal(other.json.error.code, 'unauthenticated');
    const byLink = await api(server.base, 'POST', '/v1/auth/link', { body: { token: link } });
    assert.equal(byLink.status, 400, 'the sign-in link made before the change');
    assert.equal(byLink.json.error.code, 'invalid_token');
    const byReset = await confirmReset(reset, 'chosen after the change');
    assert.equal(byReset.status, 400, 'the reset link made before the change');
    assert.equal(byReset.json.error.code, 'invalid_token');
    assert.equal(
      (await signIn(server, 'changer@reset.example', 'a changed password')).session.role,
      'member',
    );
  });

  it('a password reset ends outstanding sign-in links too', async () => {
    const team = await server.team('growth');
    await makeUser(server, team.team.id, 'member', 'resetter@reset.example');
    const link = await signInLink('resetter@reset.example', team.team.id);
    const reset = await requestReset('resetter@reset.example');
    assert.equal((await confirmReset(reset, 'chosen by reset link')).status, 200);
    const byLink = await api(server.base, 'POST', '/v1/auth/link', { body: { token: link } });
    assert.equal(byLink.status, 400);
    assert.equal(byLink.json.error.code, 'invalid_token');
  });

  /** A fresh team with two owners, each signed in. */
  async function twoOwners(round: number) {
    const team = await server.team('growth');
    const a = await makeUser(server, team.team.id, 'owner', `a${round}@owners.example`);
    const b = await makeUser(server, team.team.id, 'owner', `b${round}@owners.example`);
    const sessions: [Browser, Browser] = [await signIn(server, a.email), await signIn(server, b.email)];
    // Two warm keep-alive connections, so the racing requests leave together rather than one behind a
    // TCP handshake.
    await Promise.all(sessions.map((session) => session.call('GET', '/v1/members')));
    return { a, b, sessions };
  }

  it('two owners demoting each other at once: exactly one succeeds and one owner remains', async () => {
    for (let round = 0; round < 8; round++) {
      const { a, b, sessions } = await twoOwners(round);
      const [byA, byB] = await Promise.all([
        sessions[0].call('PUT', `/v1/members/${b.id}`, { role: 'admin' }),
        sessions[1].call('PUT', `/v1/members/${a.id}`, { role: 'admin' }),
      ]);
      assert.deepEqual(
        [byA.status, byB.status].sort(),
        [200, 403],
        `round ${round}: ${byA.text} ${byB.text}`,
      );
      // Refused as the last owner, or (when the other demotion committed before this request was
      // authenticated) as no longer an owner.
      const refused = byA.status === 403 ? byA : byB;
      assert.match(
        refused.json.error.message,
        /^(A team needs at least one owner\.|Only an owner can give or take the owner role\.)$/,
      );
      // The winner is still an owner and reads the list.
      const winner = byA.status === 200 ? sessions[0] : sessions[1];
      const list = (await winner.call('GET', '/v1/members')).json.data as Array<{ role: string }>;
      assert.equal(list.filter((m) => m.role === 'owner').length, 1, `round ${round}`);
    }
  });

  it('two owners removing each other at once: one owner remains', async () => {
    for (let round = 8; round < 16; round++) {
      const { a, b, sessions } = await twoOwners(round);
      const [byA, byB] = await Promise.all([
        sessions[0].call('DELETE', `/v1/members/${b.id}`),
        sessions[1].call('DELETE', `/v1/members/${a.id}`),
      ]);
      const statuses = [byA.status, byB.status];
      assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${byA.text} ${byB.text}`);
      // The loser is refused as the last owner, or finds its session already ended with its membership.
      const loser = byA.status === 200 ? byB : byA;
      assert.ok([401, 403].includes(loser.status), loser.text);
      const winner = byA.status === 200 ? sessions[0] : sessions[1];
      const list = (await winner.call('GET', '/v1/members')).json.data as Array<{ role: string }>;
      assert.deepEqual(
        list.map((m) => m.role),
        ['owner'],
        `round ${round}`,
      );
    }
  });
});
