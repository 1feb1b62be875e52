import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { pdfText } from '../../helpers/pdf.js';
import { quire } from '../../helpers/quire-process.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';
import { browserFrom, makeUser, PASSWORD, signIn } from './dashboard.js';

const CSRF_MESSAGE = 'Missing or wrong CSRF token. Send the x-csrf-token header the session routes return.';
const HOUR = 60 * 60 * 1000;

describe('dashboard sessions: sign-in, cookie, CSRF, expiry, modes, sign-in links', () => {
  let server: TestServer;
  let team: TestTeam;
  const clock = new ManualClock(Date.now());
  before(async () => {
    server = await startTestServer({}, { clock });
    team = await server.team('growth');
  });
  after(async () => server.close());

  it('signs in with a HttpOnly SameSite=Lax cookie, reads the session and /v1/me, and signs out', async () => {
    await makeUser(server, team.team.id, 'owner', 'Owner@Example.com');
    const response = await api(server.base, 'POST', '/v1/session', {
      body: { email: 'owner@example.com', password: PASSWORD },
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('cache-control'), 'no-store', 'the answer carries the CSRF token');
    const cookie = response.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^quire_session=[A-Za-z0-9_-]{43}; /);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    assert.match(cookie, /; Path=\//);
    assert.match(cookie, /; Max-Age=604800/, 'the browser keeps it 7 days; idle expiry is the server’s');
    assert.doesNotMatch(cookie, /Secure/, 'no Secure flag on a plain-http public URL');
    assert.equal(response.json.user.email, 'owner@example.com');
    assert.match(response.json.user.id, /^usr_[0-9a-f]{32}$/);
    assert.equal(response.json.user.has_password, true);
    assert.deepEqual(response.json.team, { id: team.team.id, name: team.team.name, plan: 'growth' });
    assert.equal(response.json.role, 'owner');
    assert.equal(response.json.mode, 'test');
    assert.equal(Date.parse(response.json.expires_at), clock.now().getTime() + 12 * HOUR);

    const browser = browserFrom(server, response);
    const current = await browser.call('GET', '/v1/session');
    assert.equal(current.status, 200);
    assert.equal(current.json.csrf_token, browser.csrf);
    const me = await browser.call('GET', '/v1/me');
    assert.equal(me.status, 200);
    assert.equal(me.json.team.id, team.team.id);
    assert.equal(me.json.key.mode, 'test');
    assert.equal(me.json.key.prefix, null);

    const out = await browser.call('DELETE', '/v1/session');
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /^quire_session=; .*Max-Age=0/);
    const after = await browser.call('GET', '/v1/session');
    assert.equal(after.status, 401);
    assert.equal(after.json.error.code, 'unauthenticated');
    const api401 = await browser.call('GET', '/v1/me');
    assert.equal(api401.json.error.code, 'unauthenticated', 'an unknown cookie on an API route');
  });

  it('answers invalid_credentials alike, in similar time, for an unknown email and a wrong password', async () => {
    await makeUser(server, team.team.id, 'member', 'timing@example.com');
    const attempt = async (email: string) => {
      const started = performance.now();
      const r = await api(server.base, 'POST', '/v1/session', {
        body: { email, password: 'not the password' },
      });
      return { r, ms: performance.now() - started };
    };
    // Warm-up: the dummy hash is made on first use.
    const warm = await attempt('nobody-warm@example.com');
    assert.equal(warm.r.headers.get('cache-control'), 'no-store', 'session errors are not cached either');
    const unknown: number[] = [];
    const wrong: number[] = [];
    // Alternated and compared by median: the machine is shared, single timings are noisy.
    for (let i = 0; i < 7; i++) {
      for (const [email, times] of [
        [`nobody${i}@example.com`, unknown],
        ['timing@example.com', wrong],
      ] as const) {
        const { r, ms } = await attempt(email);
        assert.equal(r.status, 401);
        assert.equal(r.json.error.code, 'invalid_credentials');
        assert.equal(r.json.error.message, 'Wrong email or password.');
        assert.equal(r.headers.get('set-cookie'), null);
        times.push(ms);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const ratio = median(unknown) / median(wrong);
    assert.ok(
      ratio > 0.33 && ratio < 3,
      `median unknown ${median(unknown).toFixed(1)} ms vs wrong password ${median(wrong).toFixed(1)} ms`,
    );
    console.log(
      `# timing: median unknown email ${median(unknown).toFixed(1)} ms, wrong password ${median(wrong).toFixed(1)} ms`,
    );
  });

  it('answers unauthenticated without a session on dashboard routes and invalid_api_key on API routes', async () => {
    const none = await api(server.base, 'GET', '/v1/session');
    assert.equal(none.status, 401);
    assert.equal(none.json.error.code, 'unauthenticated');
    const mode = await api(server.base, 'PUT', '/v1/session/mode', { body: { mode: 'live' } });
    assert.equal(mode.json.error.code, 'unauthenticated');
    const apiRoute = await api(server.base, 'GET', '/v1/me');
    assert.equal(apiRoute.json.error.code, 'invalid_api_key');
  });

  it('expires a session after 12 idle hours and after 7 days however active', async () => {
    await makeUser(server, team.team.id, 'member', 'idle@example.com');
    const idle = await signIn(server, 'idle@example.com');
    clock.advance(11 * HOUR);
    assert.equal((await idle.call('GET', '/v1/me')).status, 200, 'used within 12 h: slides');
    clock.advance(11 * HOUR);
    assert.equal((await idle.call('GET', '/v1/me')).status, 200);
    clock.advance(12 * HOUR + 1000);
    const expired = await idle.call('GET', '/v1/me');
    assert.equal(expired.status, 401);
    assert.equal(expired.json.error.code, 'unauthenticated');

    const busy = await signIn(server, 'idle@example.com');
    for (let i = 0; i < 15; i++) {
      clock.advance(11 * HOUR);
      assert.equal((await busy.call('GET', '/v1/session')).status, 200, `day ${(i * 11) / 24}`);
    }
    clock.advance(11 * HOUR);
    const old = await busy.call('GET', '/v1/session');
    assert.equal(old.status, 401, 'absolute expiry after 7 days');
    assert.equal(old.json.error.code, 'unauthenticated');

    // The retention sweep deletes sessions past expiry that nobody presents again.
    const { db, sweeper } = server.built.services;
    const stale = await signIn(server, 'idle@example.com');
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    clock.advance(12 * HOUR + 1000);
    await sweeper.runOnce();
    assert.ok((await count()) < before, 'expired sessions swept');
    assert.equal((await stale.call('GET', '/v1/session')).status, 401);
  });

  it('refuses state-changing requests made with the cookie without the right x-csrf-token', async () => {
    await makeUser(server, team.team.id, 'member', 'csrf@example.com');
    const browser = await signIn(server, 'csrf@example.com');
    const body = { html: '<p>x</p>' };
    for (const headers of [{}, { 'x-csrf-token': 'wrong' }] as Record<string, string>[]) {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        body,
        headers: { cookie: browser.cookie, ...headers },
      });
      assert.equal(r.status, 403);
      assert.equal(r.json.error.code, 'forbidden');
      assert.equal(r.json.error.message, CSRF_MESSAGE);
    }
    // A cross-site HTML form can send the cookie with a form body, never a custom header.
    const form = await api(server.base, 'POST', '/v1/pdf', {
      rawBody: 'html=%3Cp%3Ex%3C%2Fp%3E',
      headers: { cookie: browser.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 403);
    assert.equal(form.json.error.message, CSRF_MESSAGE);
    const signOut = await api(server.base, 'DELETE', '/v1/session', { headers: { cookie: browser.cookie } });
    assert.equal(signOut.status, 403, 'sign-out needs the token too');
    assert.equal((await browser.call('GET', '/v1/session')).status, 200, 'still signed in');
    // A bearer key needs no CSRF token, and wins over a cookie sent alongside.
    const keyed = await api(server.base, 'POST', '/v1/pdf', {
      key: team.test,
      body,
      headers: { cookie: browser.cookie },
    });
    assert.equal(keyed.status, 200);
  });

  it('renders with the session like a key of its mode: test watermarked and uncounted, live counted', async () => {
    const own = await server.team('growth');
    await makeUser(server, own.team.id, 'member', 'render@example.com');
    const browser = await signIn(server, 'render@example.com');
    const test = await browser.call('POST', '/v1/pdf', { html: '<p>Hello session</p>' });
    assert.equal(test.status, 200, test.text);
    // The watermark is diagonal: its letters come out of the text layer in any order.
    const letters = (s: string) => [...s.replace(/\s+/g, '')].sort().join('');
    assert.equal(letters(await pdfText(test.buffer)), letters('Hello session TEST DOCUMENT'));
    // The dashboard's own budget at the plan's rate (Growth: 120), not the test keys' 20.
    assert.equal(test.headers.get('x-ratelimit-limit'), '120');
    const usage = async () => (await browser.call('GET', '/v1/account/usage')).json.docs_used;
    assert.equal(await usage(), 0, 'test renders are not counted');

    const live = await browser.call('PUT', '/v1/session/mode', { mode: 'live' });
    assert.equal(live.status, 200);
    assert.equal(live.json.mode, 'live');
    const doc = await browser.call('POST', '/v1/pdf', { html: '<p>Hello live</p>' });
    assert.equal(doc.status, 200, doc.text);
    assert.equal((await pdfText(doc.buffer)).replace(/\s+/g, ''), 'Hellolive', 'no watermark');
    assert.equal(await usage(), 1, 'live renders are counted');
    const me = await browser.call('GET', '/v1/me');
    assert.equal(me.json.key.mode, 'live');
  });

  it('user create --json prints the exact shape; its link signs in once and asks for a password', async () => {
    // The CLI stamps its token with the real time; the earlier tests moved the server's clock on.
    clock.set(Date.now());
    const env = {
      QUIRE_DATA_DIR: server.config.dataDir,
      QUIRE_DATABASE_URL: server.config.databaseUrl ?? '',
    };
    const result = await quire(
      env,
      'user',
      'create',
      '--email',
      'New.Admin@example.com',
      '--team',
      team.team.id,
      '--role',
      'admin',
      '--json',
    );
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout);
    assert.deepEqual(Object.keys(printed), ['user', 'sign_in_url']);
    assert.deepEqual(Object.keys(printed.user), ['id', 'email']);
    assert.match(printed.user.id, /^usr_[0-9a-f]{32}$/);
    assert.equal(printed.user.email, 'new.admin@example.com');
    assert.match(
      printed.sign_in_url,
      /^http:\/\/127\.0\.0\.1:\d+\/app\/#\/auth\/link\?token=[A-Za-z0-9_-]{43}$/,
    );
    const token = new URL(printed.sign_in_url.replace('#/auth/link', 'auth/link')).searchParams.get('token');

    const first = await api(server.base, 'POST', '/v1/auth/link', { body: { token } });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.role, 'admin');
    assert.equal(first.json.user.has_password, false);
    const again = await api(server.base, 'POST', '/v1/auth/link', { body: { token } });
    assert.equal(again.status, 400);
    assert.equal(again.json.error.code, 'invalid_token');

    const browser = browserFrom(server, first);
    const short = await browser.call('PUT', '/v1/auth/password', { password: 'short' });
    assert.equal(short.status, 400);
    assert.equal(short.json.error.code, 'invalid_request');
    assert.match(short.json.error.message, /10 to 200 characters/);
    const set = await browser.call('PUT', '/v1/auth/password', { password: 'a brand new password' });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.json.user.has_password, true);
    const rotated = browserFrom(server, set);
    assert.notEqual(rotated.cookie, browser.cookie, 'the session id rotates');
    assert.equal((await browser.call('GET', '/v1/session')).json.error.code, 'unauthenticated');
    assert.equal((await rotated.call('GET', '/v1/session')).status, 200);
    const change = await rotated.call('PUT', '/v1/auth/password', { password: 'another new password' });
    assert.equal(change.status, 400, 'current_password is required once a password exists');
    const wrong = await rotated.call('PUT', '/v1/auth/password', {
      password: 'another new password',
      current_password: 'not it at all',
    });
    assert.equal(wrong.json.error.code, 'invalid_credentials');
    const signedIn = await signIn(server, 'new.admin@example.com', 'a brand new password');
    assert.equal(signedIn.session.role, 'admin');

    const badRole = await quire(
      env,
      'user',
      'create',
      '--email',
      'x@example.com',
      '--team',
      team.team.id,
      '--role',
      'boss',
    );
    assert.equal(badRole.code, 2);
    assert.match(badRole.stderr, /--role must be one of owner, admin, member/);
  });
});

describe('dashboard sign-in behind https, and its throttling', () => {
  let server: TestServer;
  let team: TestTeam;
  before(async () => {
    const behindProxy = await startTestServer({ publicUrl: 'https://quire.example' });
    // Links say https://quire.example; the tests talk to the loopback port as the proxy would.
    const { port } = behindProxy.built.app.server.address() as AddressInfo;
    server = { ...behindProxy, base: `http://127.0.0.1:${port}` };
    team = await server.team('growth');
  });
  after(async () => server.close());

  it('marks the cookie Secure when the public URL is https', async () => {
    await makeUser(server, team.team.id, 'member', 'secure@example.com');
    const browser = await signIn(server, 'secure@example.com');
    const response = await browser.call('PUT', '/v1/session/mode', { mode: 'test' });
    assert.equal(response.status, 200);
    const signedIn = await api(server.base, 'POST', '/v1/session', {
      body: { email: 'secure@example.com', password: PASSWORD },
    });
    assert.match(
      signedIn.headers.get('set-cookie') ?? '',
      /; HttpOnly; SameSite=Lax; Max-Age=604800; Secure$/,
    );
  });

  it('refuses with 429 rate_limited and Retry-After after 10 attempts on one account, then per address', async () => {
    await makeUser(server, team.team.id, 'member', 'target@example.com');
    const attempt = (email: string, password = 'wrong password!') =>
      api(server.base, 'POST', '/v1/session', { body: { email, password } });
    for (let i = 0; i < 10; i++) assert.equal((await attempt('target@example.com')).status, 401);
    const refused = await attempt('target@example.com', PASSWORD);
    assert.equal(refused.status, 429, 'even the right password is refused while throttled');
    assert.equal(refused.json.error.code, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    // The address's own budget: 50 attempts over any accounts.
    let last = refused;
    for (let i = 0; i < 45; i++) last = await attempt(`someone${i}@example.com`);
    assert.equal(last.status, 429);
    assert.match(last.json.error.message, /Too many sign-in attempts/);
  });
});
