import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { sweepTemplates } from '../../../src/templates/retention.js';
import { api, serverForBlock, type TestServer } from '../../helpers/server.js';
import { assertError, createTemplate, INVOICE, ok, UNKNOWN_ID } from './helpers.js';

const DAY_MS = 86_400_000;

/** Test keys, rate limits, plan limits, the retention sweep and isolation between teams (spec: Limits). */
describe('templates: access and limits', () => {
  const clock = new ManualClock();
  let server: TestServer;
  serverForBlock((s) => (server = s), {}, { clock, warmRenderer: false });
  beforeEach(() => clock.advance(61_000));

  it('test keys read templates but creating, updating, pinning and deleting is 403 forbidden', async () => {
    const { live, test } = await server.team('scale');
    const t = await createTemplate(server.base, live);
    const changes = [
      ['POST', '/v1/templates', INVOICE],
      ['PUT', `/v1/templates/${t.id}`, { name: 'x' }],
      ['POST', `/v1/templates/${t.id}/pin`, { version: 1 }],
      ['DELETE', `/v1/templates/${t.id}`, undefined],
    ] as const;
    for (const [method, path, body] of changes) {
      assertError(await api(server.base, method, path, { key: test, body }), 403, 'forbidden');
    }
    assert.equal((await ok(server.base, 'GET', '/v1/templates', test)).data.length, 1);
    assert.equal((await ok(server.base, 'GET', `/v1/templates/${t.id}`, test)).name, INVOICE.name);
    assert.equal((await ok(server.base, 'GET', `/v1/templates/${t.id}/versions`, test)).data.length, 1);
    assert.ok((await ok(server.base, 'GET', `/v1/templates/${t.id}/fields`, test)).fields.length > 0);
    const unchanged = await ok(server.base, 'GET', `/v1/templates/${t.id}`, live);
    assert.equal(unchanged.pinned_version, null);
  });

  it('limits template changes to 60 per minute per team, failed ones included', async () => {
    const { live } = await server.team('scale');
    const other = await server.team('scale');
    const t = await createTemplate(server.base, live);
    for (let i = 1; i < 59; i++)
      await ok(server.base, 'PUT', `/v1/templates/${t.id}`, live, { name: `n${i}` });
    assertError(
      await api(server.base, 'DELETE', `/v1/templates/${UNKNOWN_ID}`, { key: live }),
      404,
      'template_not_found',
    );
    clock.advance(20_000);
    const refused = assertError(
      await api(server.base, 'POST', `/v1/templates/${t.id}/pin`, { key: live, body: { version: 1 } }),
      429,
      'rate_limited',
    );
    assert.equal(refused.headers.get('retry-after'), '40');
    // Reads are not changes; another team has its own budget.
    await ok(server.base, 'GET', `/v1/templates/${t.id}`, live);
    await createTemplate(server.base, other.live);
    clock.advance(40_000);
    await ok(server.base, 'POST', `/v1/templates/${t.id}/pin`, live, { version: 1 });
  });

  it('limits previews to 30 per minute per team and key mode', async () => {
    const { live, test } = await server.team('scale');
    const path = `/v1/templates/${UNKNOWN_ID}/preview`;
    for (let i = 0; i < 30; i++) {
      assertError(await api(server.base, 'POST', path, { key: live, body: {} }), 404, 'template_not_found');
    }
    const refused = assertError(
      await api(server.base, 'POST', path, { key: live, body: {} }),
      429,
      'rate_limited',
    );
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assertError(await api(server.base, 'POST', path, { key: test, body: {} }), 404, 'template_not_found');
    clock.advance(61_000);
    assertError(await api(server.base, 'POST', path, { key: live, body: {} }), 404, 'template_not_found');
  });

  it('limits templates per plan and, including deleted ones, to that number plus 100; the sweep erases after 30 days', async () => {
    const { live, team } = await server.team('free');
    const teamId = team.id;
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(await createTemplate(server.base, live, { name: `t${i}`, html: 'x' }));
    const full = assertError(
      await api(server.base, 'POST', '/v1/templates', { key: live, body: INVOICE }),
      402,
      'plan_limit_reached',
    );
    assert.deepEqual(full.json.error.details, { limit: 'templates', max: 5 });
    await ok(server.base, 'DELETE', `/v1/templates/${made[0].id}`, live, undefined, 204);
    clock.advance(61_000);
    const replacement = await createTemplate(server.base, live, { name: 'after delete', html: 'x' });
    await ok(server.base, 'DELETE', `/v1/templates/${replacement.id}`, live, undefined, 204);
    // 99 more deleted templates (inserted directly: the API would need 200 changes) make 101 deleted + 4 live.
    const { db } = server.built.services;
    const deletedAt = clock.now().toISOString();
    for (let i = 0; i < 99; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      await db
        .insertInto('templates')
        .values({
          id,
          team_id: teamId,
          name: 'old',
          current_version: 1,
          pinned_version: null,
          created_at: deletedAt,
          updated_at: deletedAt,
          deleted_at: deletedAt,
        })
        .execute();
    }
    const capped = assertError(
      await api(server.base, 'POST', '/v1/templates', { key: live, body: INVOICE }),
      402,
      'plan_limit_reached',
    );
    assert.deepEqual(capped.json.error.details, { limit: 'templates_including_deleted', max: 105 });

    clock.advance(29 * DAY_MS);
    assert.equal((await sweepTemplates(db, server.built.services.blobs, clock.now())).templatesErased, 0);
    clock.advance(DAY_MS);
    assert.equal((await sweepTemplates(db, server.built.services.blobs, clock.now())).templatesErased, 101);
    const versionsLeft = await db
      .selectFrom('template_versions')
      .select('template_id')
      .where('template_id', 'in', [made[0].id, replacement.id])
      .execute();
    assert.equal(versionsLeft.length, 0, 'versions are erased with the template');
    assert.equal((await ok(server.base, 'GET', '/v1/templates', live)).data.length, 4);
    await createTemplate(server.base, live, { name: 'fits again', html: 'x' });
  });

  it('isolates teams on every route', async () => {
    const a = await server.team('scale');
    const b = await server.team('scale');
    const t = await createTemplate(server.base, a.live);
    const routes = [
      ['GET', `/v1/templates/${t.id}`, undefined],
      ['GET', `/v1/templates/${t.id}?version=1`, undefined],
      ['PUT', `/v1/templates/${t.id}`, { html: '<p>stolen</p>' }],
      ['GET', `/v1/templates/${t.id}/versions`, undefined],
      ['POST', `/v1/templates/${t.id}/pin`, { version: 1 }],
      ['GET', `/v1/templates/${t.id}/fields`, undefined],
      ['POST', `/v1/templates/${t.id}/preview`, {}],
      ['POST', '/v1/pdf', { template_id: t.id }],
      ['DELETE', `/v1/templates/${t.id}`, undefined],
    ] as const;
    for (const key of [b.live, b.test]) {
      for (const [method, path, body] of routes) {
        const res = await api(server.base, method, path, { key, body });
        if (key === b.test && ['PUT', 'DELETE'].includes(method)) assertError(res, 403, 'forbidden');
        else if (key === b.test && path.endsWith('/pin')) assertError(res, 403, 'forbidden');
        else assertError(res, 404, 'template_not_found');
      }
      assert.deepEqual((await ok(server.base, 'GET', '/v1/templates', key)).data, []);
    }
    const still = await ok(server.base, 'GET', `/v1/templates/${t.id}`, a.live);
    assert.equal(still.current_version, 1);
    assert.equal(still.pinned_version, null);
    assert.equal(still.html, INVOICE.html);
    assert.equal((await ok(server.base, 'GET', '/v1/documents', b.live)).data.length, 0);
  });
});
