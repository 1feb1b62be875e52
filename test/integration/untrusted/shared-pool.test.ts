import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_PKCS12_ITERATIONS } from '../../../src/certificates/pkcs12-iterations.js';
import { exportedByOpenssl, makePkcs12 } from '../../helpers/certificates.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';

/**
 * The untrusted-file pool's two threads are shared fairly between teams (src/shared/fair-pool.ts), and a
 * PKCS#12 file asking for millions of key-derivation iterations is refused before one is derived
 * (src/certificates/pkcs12-iterations.ts). Before either, six such uploads of one team held both threads
 * for a minute, and another team's small logo waited behind all of them.
 */
const PASSPHRASE = 'secret';
/** What `openssl pkcs12 -export -iter 3000000` writes: the MAC and both encryptions at that count. */
const FLOOD_ITERATIONS = 3_000_000;
const FLOOD_UPLOADS = 6;
/** The logo answers in about 0.4 s on an idle pool; a generous bound for a loaded machine. */
const ANSWER_WITHIN_MS = 2_000;
const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20" fill="#0000ff"/></svg>',
);

describe('the untrusted-file pool shared between teams', () => {
  let server: TestServer;
  let flooder: TestTeam;
  let bystander: TestTeam;
  let costly: Buffer;

  const uploadLogo = () =>
    api(server.base, 'POST', '/v1/brand-assets', {
      key: bystander.live,
      body: { kind: 'logo', name: 'Logo', content_base64: LOGO_SVG.toString('base64') },
    });
  const uploadCostly = () =>
    api(server.base, 'POST', '/v1/certificates', {
      key: flooder.live,
      body: { name: 'Flood', pkcs12_base64: costly.toString('base64'), passphrase: PASSPHRASE },
    });

  before(async () => {
    [costly, server] = await Promise.all([
      exportedByOpenssl(makePkcs12({ passphrase: PASSPHRASE }), PASSPHRASE, FLOOD_ITERATIONS),
      startTestServer(),
    ]);
    flooder = await server.team('growth');
    bystander = await server.team('scale');
    // Both threads started and their SVG renderer loaded: the bound below is about waiting, not a cold start.
    const warm = await Promise.all([uploadLogo(), uploadLogo()]);
    for (const r of warm) assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await server.close();
  });

  it(`${FLOOD_UPLOADS} PKCS#12 uploads with -iter ${FLOOD_ITERATIONS} sent at once are refused by the iteration bound; another team's SVG logo answers within ${ANSWER_WITHIN_MS / 1000} s`, async () => {
    const floods = Array.from({ length: FLOOD_UPLOADS }, uploadCostly);
    // The flood reaches the pool first, as in the finding.
    await sleep(100);
    const sent = performance.now();
    const logo = await uploadLogo();
    const tookMs = performance.now() - sent;
    assert.equal(logo.status, 201, logo.text);
    assert.ok(tookMs < ANSWER_WITHIN_MS, `the logo answered after ${tookMs.toFixed(0)} ms`);
    for (const r of await Promise.all(floods)) {
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.code, 'invalid_request');
      assert.deepEqual(
        {
          field: r.json.error.details?.field,
          limit: r.json.error.details?.limit,
          max: r.json.error.details?.max,
        },
        { field: 'pkcs12_base64', limit: 'pkcs12_iterations', max: MAX_PKCS12_ITERATIONS },
      );
      assert.match(
        r.json.error.message,
        /3,000,000 key-derivation iterations; Quire accepts at most 100,000/,
      );
      assert.match(r.json.error.message, /openssl pkcs12 -export -iter 2048/);
    }
  });
});
