import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { createApiKey } from '../../../src/accounts/teams.js';
import { readPkcs12 } from '../../../src/certificates/pkcs12.js';
import { makePkcs12 } from '../../helpers/certificates.js';
import { cutShort, flipBytes, randomJson, rng } from '../../helpers/random.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { makeUser, signIn } from '../users/dashboard.js';

const DAY = 86_400_000;
const b64 = (bytes: Buffer) => bytes.toString('base64');

/** Team certificates — upload, list, delete, every refusal, roles, the limit. */
describe('team certificates (POST/GET/DELETE /v1/certificates)', () => {
  let server: TestServer;
  let team: TestTeam;
  const p12 = () => makePkcs12({ chain: true, passphrase: 'pass phrase ü' });
  serverWithTeam('growth', (both) => ({ server, team } = both));

  const upload = (key: string, body: unknown) => api(server.base, 'POST', '/v1/certificates', { key, body });

  const refused = (
    r: {
      status: number;
      json: { error: { code: string; message: string; details?: Record<string, unknown> } };
    },
    field: string,
    message: RegExp,
  ) => {
    assert.equal(r.status, 400, JSON.stringify(r.json));
    assert.equal(r.json.error.code, 'invalid_request');
    assert.equal(r.json.error.details?.field, field);
    assert.match(r.json.error.message, message);
  };

  it('stores a chain of two: the facts come back, the key and passphrase never do', async () => {
    const file = p12();
    const r = await upload(team.live, {
      name: 'Billing',
      pkcs12_base64: b64(file),
      passphrase: 'pass phrase ü',
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.name, 'Billing');
    assert.equal(r.json.subject, 'CN=Quire Test Signer, O=Quire Tests, C=DE');
    assert.equal(r.json.issuer, 'CN=Quire Test CA, O=Quire Tests');
    assert.ok(Date.parse(r.json.not_before) < Date.now() && Date.parse(r.json.not_after) > Date.now());
    assert.match(r.json.fingerprint_sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(Object.keys(r.json).sort(), [
      'fingerprint_sha256',
      'id',
      'issuer',
      'name',
      'not_after',
      'not_before',
      'subject',
    ]);
    const list = await api(server.base, 'GET', '/v1/certificates', { key: team.test });
    assert.equal(list.status, 200, 'a test key may list');
    assert.deepEqual(list.json.data, [r.json]);
    assert.ok(!list.text.includes('pass phrase') && !list.text.includes('PRIVATE'));
    // At rest: the key is sealed (no PKCS#8 DER or its base64 in the row), the passphrase is nowhere.
    const row = await server.built.services.db
      .selectFrom('certificates')
      .selectAll()
      .where('id', '=', r.json.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    assert.ok(!stored.includes('pass phrase'), 'passphrase not stored');
    assert.match(row.key_sealed, /^v1:/);
    const key = Buffer.from(readPkcs12(file, 'pass phrase ü', new Date()).keyPkcs8);
    assert.ok(!stored.includes(key.toString('base64').slice(0, 40)), 'the key is not in the row in clear');
    assert.ok(!stored.includes(key.toString('hex').slice(0, 40)), 'nor as hex');
    assert.equal(JSON.parse(row.chain_json).length, 2);
    const fingerprint = createHash('sha256').update(Buffer.from(JSON.parse(row.chain_json)[0], 'base64'));
    assert.equal(fingerprint.digest('hex'), r.json.fingerprint_sha256);
  });

  it('refuses each broken file with invalid_request that says which', async () => {
    const good = b64(p12());
    refused(
      await upload(team.live, { name: 'x', pkcs12_base64: 'not base64!', passphrase: 'p' }),
      'pkcs12_base64',
      /base64/,
    );
    refused(
      await upload(team.live, {
        name: 'x',
        pkcs12_base64: b64(Buffer.from('%PDF-1.7 not a p12')),
        passphrase: 'p',
      }),
      'pkcs12_base64',
      /not a PKCS#12|damaged/,
    );
    refused(
      await upload(team.live, { name: 'x', pkcs12_base64: good, passphrase: 'wrong' }),
      'passphrase',
      /passphrase/,
    );
    const now = Date.now();
    refused(
      await upload(team.live, {
        name: 'x',
        pkcs12_base64: b64(
          makePkcs12({ notBefore: new Date(now - 30 * DAY), notAfter: new Date(now - DAY) }),
        ),
        passphrase: 'secret',
      }),
      'pkcs12_base64',
      /expired/,
    );
    refused(
      await upload(team.live, {
        name: 'x',
        pkcs12_base64: b64(
          makePkcs12({ notBefore: new Date(now + DAY), notAfter: new Date(now + 30 * DAY) }),
        ),
        passphrase: 'secret',
      }),
      'pkcs12_base64',
      /not valid yet/,
    );
    refused(
      await upload(team.live, {
        name: 'x',
        pkcs12_base64: b64(makePkcs12({ keyUsage: { keyEncipherment: true } })),
        passphrase: 'secret',
      }),
      'pkcs12_base64',
      /key usage does not allow signing/,
    );
    refused(
      await upload(team.live, {
        name: 'x',
        pkcs12_base64: b64(makePkcs12({ withoutKey: true })),
        passphrase: 'secret',
      }),
      'pkcs12_base64',
      /no private key/,
    );
    const truncated = p12().subarray(0, 900);
    refused(
      await upload(team.live, { name: 'x', pkcs12_base64: b64(truncated), passphrase: 'p' }),
      'pkcs12_base64',
      /./,
    );
  });

  it('lets only an admin live key or an admin/owner session upload and delete', async () => {
    const other = await server.team('growth');
    const file = b64(p12());
    const body = { name: 'Roles', pkcs12_base64: file, passphrase: 'pass phrase ü' };
    const testKey = await upload(other.test, body);
    assert.equal(testKey.status, 403, testKey.text);
    assert.match(testKey.json.error.message, /test key/);
    const { db, clock } = server.built.services;
    const member = await createApiKey(db, clock, { teamId: other.team.id, mode: 'live', role: 'member' });
    assert.equal((await upload(member.key, body)).status, 403);
    assert.equal((await api(server.base, 'GET', '/v1/certificates', { key: member.key })).status, 200);

    await makeUser(server, other.team.id, 'member', 'member@certs.example');
    const memberSession = await signIn(server, 'member@certs.example');
    assert.equal((await memberSession.call('POST', '/v1/certificates', body)).status, 403);
    await makeUser(server, other.team.id, 'admin', 'admin@certs.example');
    const adminSession = await signIn(server, 'admin@certs.example');
    const created = await adminSession.call('POST', '/v1/certificates', body);
    assert.equal(created.status, 201, created.text);

    const path = `/v1/certificates/${created.json.id}`;
    assert.equal((await api(server.base, 'DELETE', path, { key: other.test })).status, 403);
    assert.equal((await api(server.base, 'DELETE', path, { key: member.key })).status, 403);
    assert.equal((await memberSession.call('DELETE', path)).status, 403);
    // Another team's certificate is not found, as an unknown one.
    assert.equal((await api(server.base, 'DELETE', path, { key: team.live })).status, 404);
    assert.equal((await api(server.base, 'DELETE', path, { key: other.live })).status, 204);
    assert.equal((await api(server.base, 'DELETE', path, { key: other.live })).status, 404);
    assert.deepEqual((await api(server.base, 'GET', '/v1/certificates', { key: other.live })).json.data, []);
  });

  it('keeps at most 10 per team', async () => {
    const own = await server.team('growth');
    const body = { name: 'One of ten', pkcs12_base64: b64(p12()), passphrase: 'pass phrase ü' };
    for (let i = 0; i < 10; i++) assert.equal((await upload(own.live, body)).status, 201);
    const eleventh = await upload(own.live, body);
    assert.equal(eleventh.status, 402, eleventh.text);
    assert.equal(eleventh.json.error.code, 'plan_limit_reached');
    assert.equal(eleventh.json.error.details.limit, 'certificates');
  });

  it('fuzz: random bodies and damaged files get 201, 400 or 402 — never a 500 or a hang', async () => {
    const own = await server.team('growth');
    const file = p12();
    const r = rng(Number(process.env.QUIRE_PROPERTY_SEED ?? 27));
    for (let i = 0; i < 60; i++) {
      let body: unknown;
      if (i % 3 === 0) body = randomJson(r, 0, ['name', 'pkcs12_base64', 'passphrase']);
      else {
        const bytes = flipBytes(r, file, 8);
        const cut = i % 3 === 1 ? bytes : cutShort(r, bytes);
        body = { name: `Fuzz ${i}`, pkcs12_base64: b64(cut), passphrase: r.int(2) ? 'pass phrase ü' : 'x' };
      }
      const res = await upload(own.live, body);
      assert.ok(
        [201, 400, 402].includes(res.status),
        `${JSON.stringify(body).slice(0, 200)}: ${res.status} ${res.text}`,
      );
      if (res.status === 400) {
        assert.equal(res.json.error.code, 'invalid_request');
        if (typeof body === 'object' && body && 'pkcs12_base64' in body && i % 3 !== 0)
          assert.ok(['pkcs12_base64', 'passphrase'].includes(res.json.error.details?.field), res.text);
      }
      if (res.status === 201)
        await api(server.base, 'DELETE', `/v1/certificates/${res.json.id}`, { key: own.live });
    }
  });
});
