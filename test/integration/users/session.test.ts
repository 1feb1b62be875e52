import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { ManualClock } from '../../../src/shared/clock.js';
import { createUser, upsertMembership } from '../../../src/users/users.js';
import { pdfText } from '../../helpers/pdf.js';
import { quire, userCreateArgs } from '../../helpers/quire-process.js';
import {
  api,
  serverWithTeam,
  startTestServer,
  type TestServer,
  type TestTeam,
} from '../../helpers/server.js';
import { browserFrom, makeUser, PASSWORD, signIn } from './dashboard.js';

const CSRF_MESSAGE = 'Missing or wrong CSRF token. Send the x-csrf-token header the session routes return.';
const HOUR = 60 * 60 * 1000;

describe('dashboard sessions: sign-in, cookie, CSRF, expiry, modes, sign-in links', () => {
  let server: TestServer;
  let team: TestTeam;
  const clock = new ManualClock(Date.now());
  serverWithTeam('growth', (both) => ({ server, team } = both), {}, { clock });

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
    assert.equal(response.json.mode, 'live', 'a new owner starts in live mode');
    assert.equal(Date.parse(response.json.expires_at), clock.now().getTime() + 12 * HOUR);

    const browser = browserFrom(server, response);
    const current = await browser.call('GET', '/v1/session');
    assert.equal(current.status, 200);
    assert.equal(current.json.csrf_token, browser.csrf);
    const me = await browser.call('GET', '/v1/me');
    assert.equal(me.status, 200);
    assert.equal(me.json.team.id, team.team.id);
    assert.equal(me.json.key.mode, 'live');
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
      // Each attempt starts with no failures counted (the delays are tested below), so this test's 15
      // failures from the loopback address do not delay it nor the tests that follow.
      await server.built.services.db.deleteFrom('rate_windows').where('key', 'like', 'throttle:%').execute();
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

  it('replaces a hash made with other argon2 parameters at the next sign-in', async () => {
    const { db, clock: serverClock } = server.built.services;
    const old = await hash(PASSWORD, { memoryCost: 8192, timeCost: 3, parallelism: 1 });
    const user = await createUser(db, serverClock, { email: 'old-hash@example.com', passwordHash: old });
    await upsertMembership(db, serverClock, { teamId: team.team.id, userId: user.id, role: 'member' });
    const stored = async () =>
      (
        await db
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).password_hash ?? '';
    await signIn(server, 'old-hash@example.com');
    const rehashed = await stored();
    assert.notEqual(rehashed, old);
    assert.match(rehashed, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await signIn(server, 'old-hash@example.com');
    assert.equal(await stored(), rehashed, 'a hash with the pinned parameters is kept');
  });

  it('ignores X-Forwarded-Proto when no proxy is trusted: the cookie stays quire_session without Secure', async () => {
    await makeUser(server, team.team.id, 'member', 'spoof@example.com');
    const response = await api(server.base, 'POST', '/v1/session', {
      body: { email: 'spoof@example.com', password: PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    assert.equal(response.status, 200);
    const cookie = response.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^quire_session=/);
    assert.doesNotMatch(cookie, /Secure/);
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

  it('lists only the user’s own sessions and signs out the others (extensions), for sessions only', async () => {
    await makeUser(server, team.team.id, 'admin', 'sessions-a@example.com');
    await makeUser(server, team.team.id, 'admin', 'sessions-b@example.com');
    const first = await signIn(server, 'sessions-a@example.com');
    const second = await signIn(server, 'sessions-a@example.com');
    const other = await signIn(server, 'sessions-b@example.com');
    const listed = await first.call('GET', '/v1/session/list');
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.json.data.length, 2, 'the two sessions of this user, not the other user’s');
    assert.deepEqual(listed.json.data.map((s: { current: boolean }) => s.current).sort(), [false, true]);
    for (const s of listed.json.data) assert.match(s.id, /^[0-9a-f]{12}$/, 'a hash prefix, never the id');
    // An API key (even an admin one) and no session at all are refused.
    const byKey = await api(server.base, 'GET', '/v1/session/list', { key: team.live });
    assert.equal(byKey.status, 401);
    assert.equal((await api(server.base, 'GET', '/v1/session/list')).json.error.code, 'unauthenticated');
    const withoutCsrf = await api(server.base, 'DELETE', '/v1/session/others', {
      headers: { cookie: first.cookie },
    });
    assert.equal(withoutCsrf.status, 403, 'a state change needs the CSRF token');

    assert.equal((await first.call('DELETE', '/v1/session/others')).status, 204);
    assert.equal((await first.call('GET', '/v1/session')).status, 200, 'this session stays');
    assert.equal((await second.call('GET', '/v1/session')).status, 401, 'the user’s other session ended');
    assert.equal((await other.call('GET', '/v1/session')).status, 200, 'another user’s session is untouched');
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

  it('starts the next session in the mode last chosen (new owner live, other roles test)', async () => {
    const own = await server.team('growth');
    await makeUser(server, own.team.id, 'owner', 'mode-owner@example.com');
    await makeUser(server, own.team.id, 'admin', 'mode-admin@example.com');
    const owner = await signIn(server, 'mode-owner@example.com');
    assert.equal(owner.session.mode, 'live');
    const admin = await signIn(server, 'mode-admin@example.com');
    assert.equal(admin.session.mode, 'test');

    assert.equal((await owner.call('PUT', '/v1/session/mode', { mode: 'test' })).status, 200);
    assert.equal((await owner.call('DELETE', '/v1/session')).status, 204);
    assert.equal((await signIn(server, 'mode-owner@example.com')).session.mode, 'test', 'remembered');
    assert.equal((await admin.call('PUT', '/v1/session/mode', { mode: 'live' })).status, 200);
    assert.equal((await signIn(server, 'mode-admin@example.com')).session.mode, 'live', 'remembered');
  });

  it('refuses template and brand changes in test mode in words about the mode for a session, keys for a key', async () => {
    const own = await server.team('growth');
    await makeUser(server, own.team.id, 'member', 'test-mode@example.com');
    const browser = await signIn(server, 'test-mode@example.com');
    assert.equal(browser.session.mode, 'test');
    const template = { name: 'Refused', html: '<p>x</p>' };
    const bySession = await browser.call('POST', '/v1/templates', template);
    assert.equal(bySession.status, 403);
    assert.equal(bySession.json.error.code, 'forbidden');
    assert.equal(
      bySession.json.error.message,
      'Test mode can read and preview templates but not change them: switch to Live mode to edit templates.',
    );
    const byKey = await api(server.base, 'POST', '/v1/templates', { key: own.test, body: template });
    assert.equal(byKey.status, 403);
    assert.equal(byKey.json.error.message, 'Test keys can read and preview templates but not change them.');
    const logo = { kind: 'logo', name: 'logo', content_base64: Buffer.from('<svg/>').toString('base64') };
    const brand = await browser.call('POST', '/v1/brand-assets', logo);
    assert.equal(brand.status, 403);
    assert.match(brand.json.error.message, /^Test mode can read brand assets .* switch to Live mode/);
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
      ...userCreateArgs('New.Admin@example.com', team.team.id, 'admin'),
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

    const badRole = await quire(env, ...userCreateArgs('x@example.com', team.team.id, 'boss'));
    assert.equal(badRole.code, 2);
    assert.match(badRole.stderr, /--role must be one of owner, admin, member/);
    // The operator cannot demote the team's only owner either.
    const lastOwner = await quire(env, ...userCreateArgs('owner@example.com', team.team.id, 'member'));
    assert.equal(lastOwner.code, 2, lastOwner.stderr);
    assert.match(lastOwner.stderr, /owner@example\.com is the team's last owner/);
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

  it('names the cookie __Host-quire_session under an https public URL', async () => {
    await makeUser(server, team.team.id, 'member', 'host@example.com');
    const browser = await signIn(server, 'host@example.com');
    assert.match(browser.cookie, /^__Host-quire_session=[A-Za-z0-9_-]{43}$/);
    assert.equal((await browser.call('GET', '/v1/session')).status, 200);
    const plain = await api(server.base, 'GET', '/v1/session', {
      headers: { cookie: browser.cookie.replace('__Host-', '') },
    });
    assert.equal(plain.status, 401, 'the plain name, which a sibling domain could plant, is not read');
    assert.equal(plain.json.error.code, 'unauthenticated');
  });
});

describe('dashboard behind a trusted proxy: cookie by request scheme, throttling without lock-out', () => {
  let server: TestServer;
  let team: TestTeam;
  const clock = new ManualClock(Date.now());
  serverWithTeam('growth', (both) => ({ server, team } = both), { trustProxy: true }, { clock });

  const HTTPS = { 'x-forwarded-proto': 'https' };
  const signInFrom = (
    address: string,
    email: string,
    password: string,
    headers: Record<string, string> = {},
  ) =>
    api(server.base, 'POST', '/v1/session', {
      body: { email, password },
      headers: { 'x-forwarded-for': address, ...headers },
    });

  it('sets __Host-quire_session with Secure when X-Forwarded-Proto is https, quire_session without over http', async () => {
    await makeUser(server, team.team.id, 'member', 'scheme@example.com');
    const overHttps = await signInFrom('198.51.100.1', 'scheme@example.com', PASSWORD, HTTPS);
    assert.equal(overHttps.status, 200, overHttps.text);
    assert.match(
      overHttps.headers.get('set-cookie') ?? '',
      /^__Host-quire_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800; Secure$/,
    );
    const browser = browserFrom(server, overHttps);
    assert.equal((await browser.call('GET', '/v1/session', undefined, HTTPS)).status, 200);
    assert.equal((await browser.call('GET', '/v1/me', undefined, HTTPS)).status, 200);
    const out = await browser.call('DELETE', '/v1/session', undefined, HTTPS);
    assert.match(out.headers.get('set-cookie') ?? '', /^__Host-quire_session=; .*Max-Age=0; Secure$/);

    const overHttp = await signInFrom('198.51.100.1', 'scheme@example.com', PASSWORD);
    const cookie = overHttp.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^quire_session=[A-Za-z0-9_-]{43}; /);
    assert.doesNotMatch(cookie, /Secure/);
  });

  it('refuses a request carrying several session cookies instead of taking the first', async () => {
    await makeUser(server, team.team.id, 'member', 'twice@example.com');
    const signedIn = browserFrom(
      server,
      await signInFrom('198.51.100.2', 'twice@example.com', PASSWORD, HTTPS),
    );
    const planted = 'planted-session-id-planted-session-id-plant';
    for (const cookie of [
      `${signedIn.cookie}; __Host-quire_session=${planted}`,
      `__Host-quire_session=${planted}; ${signedIn.cookie}`,
    ]) {
      for (const path of ['/v1/session', '/v1/me']) {
        const refused = await api(server.base, 'GET', path, { headers: { cookie, ...HTTPS } });
        assert.equal(refused.status, 400, `${path}: ${refused.text}`);
        assert.equal(refused.json.error.code, 'invalid_request');
        assert.match(refused.json.error.message, /2 __Host-quire_session cookies.*Clear this site's cookies/);
      }
    }
    const plain = signedIn.cookie.replace('__Host-', '');
    const twoPlain = await api(server.base, 'GET', '/v1/session', {
      headers: { cookie: `${plain}; ${plain}x` },
    });
    assert.equal(twoPlain.status, 400, 'over http too');
    assert.equal(twoPlain.json.error.code, 'invalid_request');
  });

  it('delays wrong passwords per address and per account, growing, and still lets the right password in from elsewhere', async () => {
    await makeUser(server, team.team.id, 'member', 'target@example.com');
    const attacker = '203.0.113.7';
    for (let i = 0; i < 10; i++) {
      const r = await signInFrom(attacker, 'target@example.com', `wrong password ${i}`);
      assert.equal(r.status, 401, `failure ${i + 1} is answered, not refused`);
      assert.equal(r.json.error.code, 'invalid_credentials');
    }
    // Past 10 failures the address waits 1 s, then 2 s, then 4 s … after its last failure.
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const refused = await signInFrom(attacker, 'target@example.com', PASSWORD);
      assert.equal(
        refused.status,
        429,
        'while it owes a delay the address is refused, right password or not',
      );
      assert.equal(refused.json.error.code, 'rate_limited');
      assert.match(refused.json.error.message, /Too many wrong passwords from your address/);
      const wait = Number(refused.headers.get('retry-after'));
      waits.push(wait);
      clock.advance(wait * 1000);
      assert.equal((await signInFrom(attacker, 'target@example.com', 'still wrong!')).status, 401);
    }
    assert.deepEqual(waits, [1, 2, 4]);

    // The account is not locked: the right password from another address signs in, held for the account's
    // delay (13 failures: 250 ms × 2³ = 2 s).
    const started = performance.now();
    const owner = await signInFrom('192.0.2.10', 'target@example.com', PASSWORD);
    const heldMs = performance.now() - started;
    assert.equal(owner.status, 200, owner.text);
    assert.ok(heldMs >= 1900, `the answer was held ${heldMs.toFixed(0)} ms`);
    // Another account from another address is not slowed by any of it.
    await makeUser(server, team.team.id, 'member', 'bystander@example.com');
    assert.equal((await signInFrom('192.0.2.11', 'bystander@example.com', PASSWORD)).status, 200);
  });

  it('throttles the current-password check of a password change like a sign-in', async () => {
    await makeUser(server, team.team.id, 'member', 'changer@example.com');
    const address = { 'x-forwarded-for': '198.51.100.77' };
    const browser = browserFrom(server, await signInFrom('198.51.100.77', 'changer@example.com', PASSWORD));
    const change = (current: string) =>
      browser.call(
        'PUT',
        '/v1/auth/password',
        { password: 'a new password!', current_password: current },
        address,
      );
    for (let i = 0; i < 10; i++) {
      const wrong = await change(`guess number ${i}`);
      assert.equal(wrong.status, 401);
      assert.equal(wrong.json.error.code, 'invalid_credentials');
    }
    const refused = await change(PASSWORD);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1');
    clock.advance(1000);
    assert.equal((await change(PASSWORD)).status, 200);
  });
});
