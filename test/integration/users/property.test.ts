import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ERROR_CODES } from '../../../src/shared/errors.js';
import { randomJson, rng } from '../../helpers/random.js';
import {
  api,
  createTestSignInLink,
  serverWithTeam,
  signInToken,
  type TestServer,
  type TestTeam,
} from '../../helpers/server.js';
import { browserFrom, makeUser, signIn } from './dashboard.js';

/** The dashboard's request bodies, each route with the property names to aim random bodies at. */
const BODY_ROUTES = [
  { method: 'POST', path: '/v1/session', keys: ['email', 'password'] },
  { method: 'PUT', path: '/v1/session/mode', keys: ['mode'] },
  { method: 'PUT', path: '/v1/session/team', keys: ['team_id'] },
  { method: 'POST', path: '/v1/auth/link', keys: ['token'] },
  { method: 'PUT', path: '/v1/auth/password', keys: ['password', 'current_password'] },
  { method: 'POST', path: '/v1/auth/password-reset', keys: ['email'] },
  { method: 'POST', path: '/v1/auth/password-reset/confirm', keys: ['token', 'password'] },
  { method: 'POST', path: '/v1/auth/verify-email', keys: ['token'] },
  { method: 'POST', path: '/v1/auth/invitation', keys: ['token', 'password'] },
  { method: 'POST', path: '/v1/auth/invitation/accept', keys: ['token'] },
  { method: 'POST', path: '/v1/keys', keys: ['name', 'mode', 'role'] },
  { method: 'POST', path: '/v1/members/invitations', keys: ['email', 'role'] },
  { method: 'PUT', path: '/v1/account/spending-cap', keys: ['spending_cap_cents'] },
] as const;

describe('property: dashboard request bodies', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team } = both));
  before(async () => makeUser(server, team.team.id, 'owner', 'fuzz-owner@example.com'));

  it('answers random bodies sent with a session with success or a known error code, never 5xx', async () => {
    const r = rng(20261123);
    const browser = await signIn(server, 'fuzz-owner@example.com');
    await browser.call('PUT', '/v1/session/mode', { mode: 'live' });
    for (const route of BODY_ROUTES) {
      for (let i = 0; i < 20; i++) {
        const body = randomJson(r, 0, route.keys);
        const res = await browser.call(route.method, route.path, body);
        const label = `${route.method} ${route.path} ${JSON.stringify(body)?.slice(0, 100)} → ${res.status}`;
        assert.ok(res.status < 500, label);
        if (res.status >= 400) {
          assert.ok(Object.hasOwn(ERROR_CODES, res.json?.error?.code), label);
          assert.ok(res.json.error.message.length > 10, label);
        }
        // A random body that happened to sign out, switch team or rotate the session: start again.
        if ((await browser.call('GET', '/v1/session')).status !== 200) {
          const again = await signIn(server, 'fuzz-owner@example.com');
          browser.cookie = again.cookie;
          browser.csrf = again.csrf;
          await browser.call('PUT', '/v1/session/mode', { mode: 'live' });
        }
      }
    }
  });

  it('accepts a password exactly when it has 10 to 200 characters', async () => {
    const r = rng(77);
    const link = await createTestSignInLink(server, 'fuzz-password@example.com', team.team.id, 'member');
    const token = signInToken(link.sign_in_url);
    let browser = browserFrom(server, await api(server.base, 'POST', '/v1/auth/link', { body: { token } }));
    let current: string | undefined;
    const alphabet = ['a', 'Z', '7', ' ', 'é', '💥', '"', '\\'];
    for (let i = 0; i < 25; i++) {
      const length = r.pick([0, 1, 9, 10, 11, 50, 199, 200, 201, 300, r.int(260)]);
      const password = Array.from({ length }, () => r.pick(alphabet)).join('');
      const res = await browser.call('PUT', '/v1/auth/password', {
        password,
        ...(current === undefined ? {} : { current_password: current }),
      });
      const ok = length >= 10 && length <= 200;
      assert.equal(res.status, ok ? 200 : 400, `length ${length}: ${res.text.slice(0, 200)}`);
      if (ok) {
        browser = browserFrom(server, res);
        current = password;
      } else {
        assert.equal(res.json.error.code, 'invalid_request');
      }
    }
    assert.ok(current, 'some password was set');
    assert.equal((await signIn(server, 'fuzz-password@example.com', current)).session.role, 'member');
  });
});
