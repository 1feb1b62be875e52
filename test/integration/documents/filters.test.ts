import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

const DAY_MS = 86_400_000;

/** GET /v1/documents with the extension filters `status`, `template_id`, `from` and `to` (the dashboard's log). */
describe('document log filters', () => {
  const clock = new ManualClock(new Date('2026-05-04T09:00:00Z'));
  let server: TestServer;
  let t: TestTeam;
  const ids: Record<'html1' | 'template1' | 'html3' | 'failed3', string> = {
    html1: '',
    template1: '',
    html3: '',
    failed3: '',
  };
  let templateId = '';

  const render = async (body: unknown) => {
    // One second apart: documents made at the same instant would be ordered by their random ids.
    clock.advance(1_000);
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { ...(body as object), response: 'url' },
    });
    assert.equal(r.status, 200, r.text);
    return r.json.id as string;
  };
  const list = async (query: string) => {
    const r = await api(server.base, 'GET', `/v1/documents?${query}`, { key: t.live });
    assert.equal(r.status, 200, r.text);
    return r.json as { data: { id: string; status: string }[]; next_before: string | null };
  };

  before(async () => {
    server = await startTestServer({ workers: 1 }, { clock });
    t = await server.team('growth');
    ids.html1 = await render({ html: '<p>one</p>' });
    const template = await api(server.base, 'POST', '/v1/templates', {
      key: t.live,
      body: { name: 'Filtered', html: '<p>{{ n }}</p>', sample_data: { n: 1 } },
    });
    assert.equal(template.status, 201, template.text);
    templateId = template.json.id;
    ids.template1 = await render({ template_id: templateId, data: { n: 2 } });
    clock.advance(2 * DAY_MS);
    ids.html3 = await render({ html: '<p>three</p>' });
    // 60 pages is over the 50-page limit: the background render fails for good.
    clock.advance(1_000);
    const queued = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<div style="break-after: page">x</div>'.repeat(60), async: true },
    });
    assert.equal(queued.status, 202, queued.text);
    ids.failed3 = queued.json.id;
    await waitFor('the background render to fail', async () => {
      const r = await api(server.base, 'GET', `/v1/pdf/${ids.failed3}`, { key: t.live });
      return r.json.status === 'failed' ? r.json : null;
    });
  });
  after(async () => server.close());

  it('narrows by status, template and UTC day, newest first', async () => {
    assert.deepEqual(
      (await list('status=failed')).data.map((d) => d.id),
      [ids.failed3],
    );
    assert.deepEqual(
      (await list(`template_id=${templateId}`)).data.map((d) => d.id),
      [ids.template1],
    );
    assert.deepEqual(
      (await list('from=2026-05-06')).data.map((d) => d.id),
      [ids.failed3, ids.html3],
    );
    assert.deepEqual(
      (await list('to=2026-05-04')).data.map((d) => d.id),
      [ids.template1, ids.html1],
    );
    assert.deepEqual((await list('from=2026-05-05&to=2026-05-05')).data, []);
    assert.deepEqual(
      (await list('status=succeeded&from=2026-05-04&to=2026-05-06')).data.map((d) => d.id),
      [ids.html3, ids.template1, ids.html1],
    );
  });

  it('pages on with the same filters through next_before', async () => {
    const first = await list('status=succeeded&limit=2');
    assert.deepEqual(
      first.data.map((d) => d.id),
      [ids.html3, ids.template1],
    );
    assert.ok(first.next_before);
    const second = await list(`status=succeeded&limit=2&before=${first.next_before}`);
    assert.deepEqual(
      second.data.map((d) => d.id),
      [ids.html1],
    );
    assert.equal(second.next_before, null);
  });

  it('refuses a bad filter with invalid_request naming the parameter', async () => {
    for (const query of ['status=done', 'from=2026-02-30', 'to=yesterday', 'template_id=abc', 'sort=asc']) {
      const parameter = query.slice(0, query.indexOf('='));
      const r = await api(server.base, 'GET', `/v1/documents?${query}`, { key: t.live });
      assert.equal(r.status, 400, `${query}: ${r.text}`);
      assert.equal(r.json.error.code, 'invalid_request');
      assert.match(r.json.error.message, new RegExp(parameter), r.json.error.message);
    }
  });
});
