import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, renderedPdf, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const ACCESSIBLE = `<html lang="en"><head><title>Statement</title></head><body>
  <h1>Statement</h1><h2>Summary</h2><p>Your balance is 12.00.</p>
  <ul><li>Paid in May</li></ul>
  <table><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody><tr><td>Pen</td><td>2.00</td></tr></tbody></table>
  <img alt="Company logo" src="data:image/png;base64,${PNG}" width="40" height="40">
</body></html>`;

/** A figure without alternate text, and a heading level skipped (h1 → h3). */
const FLAWED = `<html lang="en"><head><title>Flawed</title></head><body>
  <h1>Flawed</h1><h3>Skipped a level</h3><p>Text.</p>
  <img src="data:image/png;base64,${PNG}" width="40" height="40">
</body></html>`;

interface Check {
  id: string;
  passed: boolean;
  count: number;
}

describe('the accessibility report (extension accessibility_report)', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team } = both));

  async function report(html: string, response: 'binary' | 'url' = 'binary') {
    const r = await renderedPdf(server, team.live, { html, accessibility_report: true, response });
    const id = response === 'url' ? r.json.id : r.headers.get('x-document-id');
    const doc = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: team.live });
    return { header: r.headers.get('x-accessibility'), accessibility: doc.json.accessibility };
  }

  it('passes a document written for it: the header and the Document say so', async () => {
    const { header, accessibility } = await report(ACCESSIBLE);
    assert.equal(header, 'tagged; ua1=pass', JSON.stringify(accessibility?.checks));
    assert.equal(accessibility.ua1, 'pass');
    assert.equal(accessibility.tagged, true);
    assert.deepEqual(
      accessibility.checks.filter((c: Check) => !c.passed),
      [],
    );
  });

  it('flags a figure without alt and a skipped heading level, with their counts', async () => {
    for (const response of ['binary', 'url'] as const) {
      const { header, accessibility } = await report(FLAWED, response);
      assert.match(header ?? '', /^tagged; ua1=fail\(\d+\)$/, `${response}: ${header}`);
      const failed = new Map(
        accessibility.checks.filter((c: Check) => !c.passed).map((c: Check) => [c.id, c.count]),
      );
      assert.equal(failed.get('figure_alt'), 1, JSON.stringify(accessibility.checks));
      assert.equal(failed.get('heading_levels'), 1);
    }
  });

  it('reports an untagged file as such, and nothing when not asked', async () => {
    const untagged = await renderedPdf(server, team.live, {
      html: ACCESSIBLE,
      tagged: false,
      accessibility_report: true,
    });
    assert.match(untagged.headers.get('x-accessibility') ?? '', /^untagged; ua1=fail\(\d+\)$/);
    const plain = await renderedPdf(server, team.live, { html: ACCESSIBLE });
    assert.equal(plain.headers.get('x-accessibility'), null);
    const doc = await api(server.base, 'GET', `/v1/pdf/${plain.headers.get('x-document-id')}`, {
      key: team.live,
    });
    assert.equal(doc.json.accessibility, undefined);
  });
});
