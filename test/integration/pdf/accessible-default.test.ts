import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EINVOICE_FIXTURES } from '../../fixtures/einvoice-fixtures.js';
import { pdfObjects, pdfTool } from '../../helpers/pdf.js';
import { api, renderedPdf, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A document a screen reader should be able to follow: headings, a list, a table, a logo and a spacer. */
const DOCUMENT = `<html lang="en"><head><title>Invoice 42</title><style>
  @page { @bottom-center { content: "Page " counter(page); } }
</style></head><body>
  <h1>Invoice 42</h1><p>Thank you for your order.</p>
  <ul><li>Delivery in May</li><li>Payment in 30 days</li></ul>
  <table><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody><tr><td>Pen</td><td>2.00</td></tr></tbody></table>
  <img alt="Company logo" src="data:image/png;base64,${PNG}" width="40" height="40">
  <img alt="" src="data:image/png;base64,${PNG}" width="40" height="40">
</body></html>`;

/** The structure element types of the file, and the alternate text of each Figure. */
async function structureOf(pdf: Buffer) {
  const objects = await pdfObjects(pdf);
  const elements = objects.all().filter((o) => o['/Type'] === '/StructElem' || o['/S'] !== undefined);
  const types = new Set(elements.map((e) => String(e['/S']).replace(/^\//, '')));
  const figures = elements.filter((e) => e['/S'] === '/Figure').map((e) => String(e['/Alt'] ?? ''));
  return { root: objects.catalog['/StructTreeRoot'] !== undefined, types, figures };
}

async function isTagged(pdf: Buffer): Promise<boolean> {
  const { stdout } = await pdfTool('pdfinfo', [], pdf);
  return /^Tagged:\s+yes$/m.test(stdout);
}

describe('every PDF is tagged for screen readers unless the request says tagged: false', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 });

  it('with no option: H1, P, L/LI, Table/TH/TD and one Figure carrying the alt; the page footer is not in the structure', async () => {
    for (const mode of ['fast', 'print'] as const) {
      const r = await renderedPdf(server, team.live, { html: DOCUMENT, mode });
      assert.ok(await isTagged(r.buffer), `${mode}: pdfinfo says Tagged: yes`);
      const { root, types, figures } = await structureOf(r.buffer);
      assert.ok(root, `${mode}: a StructTreeRoot`);
      for (const type of ['H1', 'P', 'L', 'LI', 'Table', 'TH', 'TD'])
        assert.ok(types.has(type), `${mode}: a ${type} element (${[...types].join(', ')})`);
      assert.equal(figures.length, 1, `${mode}: one Figure, the decorative image left out`);
      assert.match(figures[0] ?? '', /Company logo/);
      const { stdout } = await pdfTool('pdfinfo', ['-struct-text'], r.buffer);
      assert.doesNotMatch(stdout, /Page 1/, `${mode}: the running footer is an artifact, not content`);
    }
  });

  it('tagged: false opts out', async () => {
    const r = await renderedPdf(server, team.live, { html: DOCUMENT, tagged: false });
    assert.equal(await isTagged(r.buffer), false);
    assert.equal((await structureOf(r.buffer)).root, false);
  });

  it('stored templates, batches and Factur-X e-invoices are tagged too', async () => {
    const template = await api(server.base, 'POST', '/v1/templates', {
      key: team.live,
      body: { name: 'tagged', html: '<html lang="en"><h1>{{ title }}</h1><p>Body</p></html>' },
    });
    assert.equal(template.status, 201, template.text);
    const fromTemplate = await renderedPdf(server, team.live, {
      template_id: template.json.id,
      data: { title: 'From a template' },
    });
    assert.ok(await isTagged(fromTemplate.buffer), 'a stored template');

    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: team.test,
      body: { template_id: template.json.id, items: [{ data: { title: 'Batch item' } }] },
    });
    assert.equal(batch.status, 202, batch.text);
    const items = await waitFor('the batch item to succeed', async () => {
      const r = await api(server.base, 'GET', `/v1/batches/${batch.json.id}/items`, { key: team.test });
      return r.json.data?.[0]?.status === 'succeeded' ? r.json.data : null;
    });
    const file = await fetch(items[0].document_url);
    assert.ok(await isTagged(Buffer.from(await file.arrayBuffer())), 'a batch item');

    const fixture = EINVOICE_FIXTURES.find((f) => f.name === 'two-rates-allowances-prepaid');
    const einvoice = await renderedPdf(server, team.live, {
      e_invoice: { standard: 'factur-x', profile: 'en16931', invoice: fixture?.invoice },
    });
    assert.ok(await isTagged(einvoice.buffer), 'a Factur-X PDF');
  });
});
