import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATE_PATTERN_LIMITS, TEMPLATE_CACHE } from '../../../src/liquid/index.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';

/**
 * Caches keyed by request data are bounded by bytes. On the old code a distinct
 * 1 MB date_format pattern held ≈ 43 MB each (RSS 318 → 668 MB in four requests) and the parsed
 * template cache kept 200 templates whatever their size.
 *
 * Renders here end with a failing filter on purpose: the caches fill while Liquid runs, and the
 * request stops at template_render_error before Chromium, which keeps the test fast.
 */
const FAIL_AT_END = '{{ 1 | money: "nope" }}';
const MB = 1024 * 1024;

/**
 * A distinct valid 99-character pattern per number: 50 fields (d or M) separated by dots, 99
 * parts, ≈ 10 KB compiled: about 100 fit the 1 MB budget, fewer than the 256 entries allowed.
 */
function fieldPattern(n: number): string {
  return Array.from({ length: 50 }, (_, bit) => (Math.floor(n / 2 ** bit) % 2 === 0 ? 'd' : 'M')).join('.');
}

describe('Liquid caches stay within their byte budgets', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('scale', (both) => ({ server, team } = both));

  const stats = () => server.built.services.liquid.stats();

  it('refuses a date_format pattern over 100 characters with template_render_error, without holding it', async (t) => {
    const rssBefore = process.memoryUsage().rss;
    for (let i = 0; i < 6; i++) {
      // 1 MB of valid pattern text, distinct per request (the old code compiled and kept each one).
      const pattern = `'${i}' ${'yyyy.'.repeat(MB / 5)}`;
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: team.live,
        body: { html: '<p>{{ d | date_format: p }}</p>', data: { d: '2026-11-02', p: pattern } },
      });
      assert.equal(r.status, 422);
      assert.equal(r.json.error.code, 'template_render_error');
      assert.equal(
        r.json.error.message,
        'The "date_format" filter needs a pattern of at most 100 characters.',
      );
      assert.deepEqual(r.json.error.details, { line: 1, column: 4 });
    }
    const grownMb = (process.memoryUsage().rss - rssBefore) / MB;
    t.diagnostic(`RSS grew ${Math.round(grownMb)} MB over six 1 MB patterns`);
    // The old code kept ≈ 43 MB per pattern (≈ 260 MB here) on top of the ≈ 100 MB that copies of
    // these requests take while they are handled (workers' heaps, not yet collected).
    assert.ok(grownMb < 200, `RSS grew ${Math.round(grownMb)} MB`);
    // Only the workers' own warm-up patterns are held; one 1 MB pattern would count ≥ 2 MB.
    assert.ok(stats().peakCache.patterns < 16 * 1024, `${stats().peakCache.patterns} bytes of patterns held`);
  });

  it('keeps compiled date patterns within the per-worker byte budget however many distinct ones arrive', async () => {
    const patterns = Array.from({ length: 400 }, (_, i) => fieldPattern(i));
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: {
        html: `{% for p in patterns %}{{ d | date_format: p }}{% endfor %}${FAIL_AT_END}`,
        data: { d: '2026-11-02', patterns },
      },
    });
    assert.equal(r.json.error.code, 'template_render_error');
    assert.match(r.json.error.message, /"money" filter/, 'every pattern formatted; only the last tag failed');
    const held = stats().peakCache.patterns;
    assert.ok(held > DATE_PATTERN_LIMITS.cacheBytes / 2, `the cache was used (${held} bytes)`);
    assert.ok(held <= DATE_PATTERN_LIMITS.cacheBytes, `${held} bytes held`);
  });

  it('keeps parsed stored templates within the per-worker byte budget (a big template counts by its size)', async () => {
    // 2,500 output tags each: ≈ 5 MB parsed, so nine fill the 48 MB budget; fourteen would hold ≈ 70 MB.
    for (let i = 0; i < 14; i++) {
      const html = `<p>${i}</p>${'{{ a }}'.repeat(2500)}${FAIL_AT_END}`;
      const created = await api(server.base, 'POST', '/v1/templates', {
        key: team.live,
        body: { name: `big ${i}`, html },
      });
      assert.equal(created.status, 201);
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: team.live,
        body: { template_id: created.json.id, data: { a: 1 } },
      });
      assert.match(r.json.error.message, /"money" filter/);
    }
    const held = stats().peakCache.templates;
    assert.ok(held > TEMPLATE_CACHE.maxBytes / 2, `the cache was used (${held} bytes)`);
    assert.ok(held <= TEMPLATE_CACHE.maxBytes, `${held} bytes held`);
  });
});
