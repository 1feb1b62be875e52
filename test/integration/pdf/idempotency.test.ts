import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdempotencyStore } from '../../../src/idempotency/index.js';
import { ManualClock } from '../../../src/shared/clock.js';
import type { Db } from '../../../src/storage/db.js';
import { databaseForBlock } from '../../helpers/database.js';
import { api, serverForBlock, type TestServer } from '../../helpers/server.js';

const usage = async (server: TestServer, key: string) =>
  (await api(server.base, 'GET', '/v1/account/usage', { key })).json.docs_used as number;

const documentCount = async (server: TestServer, teamId: string) =>
  Number(
    (
      await server.built.services.db
        .selectFrom('documents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('team_id', '=', teamId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Idempotency-Key on POST /pdf', () => {
  let server: TestServer;
  const clock = new ManualClock(Date.parse('2026-11-02T10:00:00Z'));
  serverForBlock((s) => (server = s), { workers: 1 }, { clock });

  const post = (key: string, body: unknown, idem?: string) =>
    api(server.base, 'POST', '/v1/pdf', {
      key,
      body,
      ...(idem === undefined ? {} : { headers: { 'idempotency-key': idem } }),
    });

  it('replays a binary answer: same document, same bytes, counted once, no warnings on the replay', async () => {
    const t = await server.team('growth');
    const first = await post(t.live, { html: '<p>{{ who }} {{ nope }}</p>', data: { who: 'once' } }, 'bin-1');
    assert.equal(first.status, 200);
    assert.notEqual(first.headers.get('x-warnings'), '[]', 'the first answer warns about "nope"');
    // The same body with another key order and spacing is the same request.
    const again = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      rawBody: '{ "data": {"who":"once"},   "html": "<p>{{ who }} {{ nope }}</p>" }',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'bin-1' },
    });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-document-id'), first.headers.get('x-document-id'));
    assert.equal(again.headers.get('x-pages'), first.headers.get('x-pages'));
    assert.equal(again.headers.get('x-warnings'), '[]');
    assert.equal(again.headers.get('x-blocked-resources'), '0');
    assert.ok(again.buffer.equals(first.buffer), 'the stored PDF again');
    assert.equal(await usage(server, t.live), 1);
    assert.equal(await documentCount(server, t.team.id), 1);
  });

  it('replays url and async answers with the same document id', async () => {
    const t = await server.team('growth');
    const url1 = await post(t.live, { html: '<p>u</p>', response: 'url' }, 'url-1');
    const url2 = await post(t.live, { html: '<p>u</p>', response: 'url' }, 'url-1');
    assert.equal(url1.status, 200);
    assert.equal(url2.status, 200);
    assert.equal(url2.json.id, url1.json.id);
    assert.ok(url2.json.url);
    assert.deepEqual(url2.json.warnings, []);
    const a1 = await post(t.live, { html: '<p>a</p>', async: true }, 'async-1');
    const a2 = await post(t.live, { html: '<p>a</p>', async: true }, 'async-1');
    assert.equal(a1.status, 202);
    assert.equal(a2.status, 202);
    assert.deepEqual(a2.json, a1.json);
    assert.equal(a2.headers.get('location'), `/v1/pdf/${a1.json.id}`);
    assert.equal(await documentCount(server, t.team.id), 2);
  });

  it('same key, different body: idempotency_mismatch (422); keys are scoped per team and per key mode', async () => {
    const t = await server.team('growth');
    assert.equal((await post(t.live, { html: '<p>1</p>' }, 'scope')).status, 200);
    const mismatch = await post(t.live, { html: '<p>2</p>' }, 'scope');
    assert.equal(mismatch.status, 422);
    assert.equal(mismatch.json.error.code, 'idempotency_mismatch');
    const testMode = await post(t.test, { html: '<p>2</p>' }, 'scope');
    assert.equal(testMode.status, 200, 'the test key has its own keys');
    const other = await server.team('growth');
    assert.equal((await post(other.live, { html: '<p>3</p>' }, 'scope')).status, 200, 'another team too');
  });

  it('a test binary answer sent with a key is stored, so it can be replayed', async () => {
    const t = await server.team('growth');
    const first = await post(t.test, { html: '<p>t</p>' }, 'test-bin');
    assert.equal(first.status, 200);
    const doc = await api(server.base, 'GET', `/v1/pdf/${first.headers.get('x-document-id')}`, {
      key: t.test,
    });
    assert.ok(doc.json.url, 'stored');
    const again = await post(t.test, { html: '<p>t</p>' }, 'test-bin');
    assert.ok(again.buffer.equals(first.buffer));
  });

  it('ten concurrent requests with one key: exactly one renders and counts, the others get 409 or the same answer', async () => {
    const t = await server.team('growth');
    const slow = '<script>const end = Date.now() + 1200; while (Date.now() < end) {}</script><p>slow</p>';
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(t.live, { html: slow }, 'race')));
    const ok = answers.filter((a) => a.status === 200);
    assert.ok(ok.length >= 1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      assert.equal(a.status, 409);
      assert.equal(a.json.error.code, 'idempotency_conflict');
    }
    assert.equal(new Set(ok.map((a) => a.headers.get('x-document-id'))).size, 1);
    const first = ok[0]?.buffer ?? Buffer.alloc(0);
    for (const a of ok) assert.ok(a.buffer.equals(first), 'identical answers');
    // The ones refused while the first ran get the same answer when they retry.
    const retried = await post(t.live, { html: slow }, 'race');
    assert.equal(retried.headers.get('x-document-id'), ok[0]?.headers.get('x-document-id'));
    assert.ok(retried.buffer.equals(first));
    assert.equal(await documentCount(server, t.team.id), 1);
    assert.equal(await usage(server, t.live), 1);
  });

  it('a key whose file is no longer stored answers file_expired (410)', async () => {
    const t = await server.team('free');
    const first = await post(t.live, { html: '<p>gone</p>' }, 'gone');
    const id = first.headers.get('x-document-id') ?? '';
    await server.built.services.db
      .updateTable('documents')
      .set({ expires_at: new Date(clock.now().getTime() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const again = await post(t.live, { html: '<p>gone</p>' }, 'gone');
    assert.equal(again.status, 410);
    assert.equal(again.json.error.code, 'file_expired');
  });

  it('keys are remembered 24 hours: afterwards the key is new again', async () => {
    const t = await server.team('growth');
    assert.equal((await post(t.live, { html: '<p>day 1</p>' }, 'daily')).status, 200);
    clock.advance(24 * 60 * 60 * 1000 - 1000);
    assert.equal((await post(t.live, { html: '<p>day 2</p>' }, 'daily')).status, 422, 'still within 24 h');
    clock.advance(2000);
    const next = await post(t.live, { html: '<p>day 2</p>' }, 'daily');
    assert.equal(next.status, 200);
    assert.equal(await documentCount(server, t.team.id), 2);
  });

  it('malformed keys are invalid_request and nothing is rendered', async () => {
    const t = await server.team('growth');
    for (const bad of ['has space', 'x'.repeat(256), 'caf\u00e9']) {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: t.live,
        body: { html: '<p>x</p>' },
        headers: { 'idempotency-key': Buffer.from(bad, 'utf8').toString('latin1') },
      });
      assert.equal(r.status, 400, bad);
      assert.equal(r.json.error.code, 'invalid_request');
      assert.match(r.json.error.message, /Idempotency-Key/);
    }
    assert.equal(await documentCount(server, t.team.id), 0);
  });

  it('a failed request releases its key: the retry renders', async () => {
    const t = await server.team('growth');
    const tooMany = Array.from({ length: 60 }, (_, i) => `<p style="break-after: page">${i}</p>`).join('');
    assert.equal((await post(t.live, { html: tooMany }, 'retry-me')).status, 413);
    const retry = await post(t.live, { html: tooMany }, 'retry-me');
    assert.equal(retry.status, 413, 'rendered again, not replayed or refused as a conflict');
  });
});

describe('idempotency key leases (a process that died mid-request)', () => {
  let db: Db;
  const clock = new ManualClock(Date.parse('2026-11-02T10:00:00Z'));
  databaseForBlock('quire-idem-', (both) => ({ db } = both));

  it('a running key conflicts until its lease ends, then the retry takes it over exactly once', async () => {
    const store = new IdempotencyStore({ db, clock });
    const scope = { teamId: 't1', mode: 'live' as const, route: 'POST /pdf', key: 'k' };
    assert.deepEqual(await store.claim(scope, 'h'), { kind: 'proceed' });
    // The process dies here: neither complete nor release runs.
    await assert.rejects(store.claim(scope, 'h'), { code: 'idempotency_conflict' });
    clock.advance(2 * 60 * 1000 + 1);
    const [a, b] = await Promise.allSettled([store.claim(scope, 'h'), store.claim(scope, 'h')]);
    const proceeded = [a, b].filter((r) => r.status === 'fulfilled');
    assert.equal(proceeded.length, 1, 'one retry takes the key over, the other conflicts');
  });
});
