import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EINVOICE_FIXTURES } from '../../fixtures/einvoice-fixtures.js';
import { pdfInfo, pdfText } from '../../helpers/pdf.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { createTemplate } from '../templates/helpers.js';

const fixture = EINVOICE_FIXTURES.find((f) => f.name === 'two-rates-allowances-prepaid');
if (!fixture) throw new Error('fixture missing');
const invoice = fixture.invoice as Record<string, unknown>;

const MM_IN_PT = 72 / 25.4;

/** True when two PDF lengths in points agree within Chromium's rounding to whole CSS pixels. */
const near = (a: number, b: number) => Math.abs(a - b) < 1.5;

describe('spec deviations: e_invoice envelope, preview without a body, orientation with a custom size', () => {
  let server: TestServer;
  let keys: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team: keys } = both));

  it('refuses an unknown field next to standard/profile/invoice with invalid_request naming it', async () => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.test,
      body: { e_invoice: { standard: 'factur-x', invoice, sendr: 'x' } },
    });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, 'invalid_request');
    assert.match(r.json.error.message, /"e_invoice\.sendr"/);
  });

  it('keeps an unknown field inside the invoice an invalid_e_invoice issue with its path', async () => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.test,
      body: { e_invoice: { standard: 'factur-x', invoice: { ...invoice, sendr: 'x' } } },
    });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, 'invalid_e_invoice');
    const paths = r.json.error.details.issues.map((i: { path: string }) => i.path);
    assert.ok(paths.includes('e_invoice.invoice.sendr'), paths.join(', '));
  });

  it('previews a template with no body, an empty JSON body, or {}', async () => {
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: keys.live,
      body: { name: 'Preview me', html: '<p>Hello {{ who }}</p>', sample_data: { who: 'sample world' } },
    });
    assert.equal(created.status, 201, created.text);
    const path = `/v1/templates/${created.json.id}/preview`;
    const variants: Array<[string, Parameters<typeof api>[3]]> = [
      ['no body, no content-type', { key: keys.test }],
      [
        'empty body sent as JSON',
        { key: keys.test, rawBody: '', headers: { 'content-type': 'application/json' } },
      ],
      ['{}', { key: keys.test, body: {} }],
    ];
    for (const [label, options] of variants) {
      const r = await api(server.base, 'POST', path, options);
      assert.equal(r.status, 200, `${label}: ${r.text.slice(0, 200)}`);
      assert.equal(r.headers.get('content-type'), 'application/pdf', label);
      assert.match(await pdfText(r.buffer), /Hello sample world/, label);
    }
    const stillChecked = await api(server.base, 'POST', path, { key: keys.test, body: { dat: {} } });
    assert.equal(stillChecked.status, 400);
    assert.equal(stillChecked.json.error.code, 'invalid_request');
  });

  it('ignores orientation with a custom {width, height}: the page is as wide and tall as sent', async () => {
    for (const orientation of ['portrait', 'landscape']) {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: keys.test,
        body: {
          html: '<p>wide</p>',
          format: { width: '100mm', height: '50mm' },
          orientation,
          margins: '5mm',
        },
      });
      assert.equal(r.status, 200, `${orientation}: ${r.text.slice(0, 200)}`);
      const info = await pdfInfo(r.buffer);
      assert.ok(near(info.width, 100 * MM_IN_PT), `${orientation} width ${info.width}`);
      assert.ok(near(info.height, 50 * MM_IN_PT), `${orientation} height ${info.height}`);
    }
  });

  it('accepts template settings with a custom size and an orientation, and renders the custom size', async () => {
    const created = await createTemplate(server.base, keys.live, {
      name: 'Label',
      html: '<p>label</p>',
      settings: { format: { width: '4in', height: '6in' }, orientation: 'landscape', margin: '0' },
    });
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.test,
      body: { template_id: created.id },
    });
    assert.equal(r.status, 200, r.text.slice(0, 200));
    const info = await pdfInfo(r.buffer);
    assert.ok(near(info.width, 4 * 72) && near(info.height, 6 * 72), `${info.width} x ${info.height}`);
  });
});
