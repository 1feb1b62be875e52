import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdfText } from '../../helpers/pdf.js';
import { api, serverForBlock, type TestServer } from '../../helpers/server.js';
import { makeXlsx } from '../../helpers/xlsx.js';
import { teamWithTemplate, unzipAll, waitForBatch } from './helpers.js';

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

describe('spreadsheets: parse, and CSV / XLSX batches', () => {
  let server: TestServer;
  serverForBlock((s) => (server = s), { allowPrivateWebhooks: true, workers: 1 });

  /** A template with sample data, so its fields (and the suggested mapping) are known. */
  async function invoiceTemplate(key: string): Promise<string> {
    const created = await api(server.base, 'POST', '/v1/templates', {
      key,
      body: {
        name: 'Invoice',
        html: '<p>Invoice {{ number }} for {{ customer.name }} total {{ total }} due {{ due }}</p>',
        sample_data: { number: 'S-1', customer: { name: 'Sample' }, total: 1, due: '2026-01-01' },
        settings: { mode: 'fast' },
      },
    });
    assert.equal(created.status, 201, created.text);
    return created.json.id as string;
  }

  it('parses an XLSX with typed cells and suggests a mapping; its batch with that mapping renders every row', async () => {
    const t = await server.team('growth');
    const templateId = await invoiceTemplate(t.live);
    // The "done when": 200 rows from a fresh XLSX through the suggested mapping → 200 correct PDFs.
    const ROWS = 200;
    const rows = Array.from({ length: ROWS }, (_, i) => [
      `X-${i}`,
      `Client ${i}`,
      100 + i + 0.5,
      new Date(Date.UTC(2026, 0, 1) + i * 86_400_000),
    ]);
    const xlsx = await makeXlsx([['Number', 'Customer Name', 'Total', 'Due'], ...rows]);
    const parsed = await api(server.base, 'POST', '/v1/spreadsheets/parse', {
      key: t.test,
      body: { filename: 'invoices.xlsx', content_base64: b64(xlsx), template_id: templateId },
    });
    assert.equal(parsed.status, 200, parsed.text);
    assert.equal(parsed.json.format, 'xlsx');
    assert.deepEqual(parsed.json.columns, ['Number', 'Customer Name', 'Total', 'Due']);
    assert.equal(parsed.json.row_count, ROWS);
    assert.equal(parsed.json.max_rows, 5_000);
    assert.deepEqual(parsed.json.preview[0], {
      Number: 'X-0',
      'Customer Name': 'Client 0',
      Total: 100.5,
      Due: '2026-01-01',
    });
    assert.deepEqual(parsed.json.fields, ['number', 'customer.name', 'total', 'due']);
    assert.deepEqual(parsed.json.mapping, {
      Number: 'number',
      'Customer Name': 'customer.name',
      Total: 'total',
      Due: 'due',
    });

    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: t.test,
      body: {
        template_id: templateId,
        spreadsheet: { filename: 'invoices.xlsx', content_base64: b64(xlsx), mapping: parsed.json.mapping },
        filename_pattern: '{{ number }}',
      },
    });
    assert.equal(batch.status, 202, batch.text);
    assert.equal(batch.json.counts.total, ROWS);
    const done = await waitForBatch(server.base, t.live, batch.json.id);
    assert.equal(done.counts.succeeded, ROWS);
    const entries = await unzipAll(Buffer.from(await (await fetch(done.zip.url)).arrayBuffer()));
    assert.deepEqual(
      [...entries.keys()],
      rows.map((row) => `${row[0]}.pdf`),
    );
    for (const [i, pdf] of [...entries.values()].entries()) {
      const due = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      assert.match(
        await pdfText(pdf),
        new RegExp(`Invoice X-${i} for Client ${i} total ${100 + i}\\.5 due ${due}`),
      );
    }
  });

  it('runs a semicolon CSV with BOM, quoted separators, quotes and line breaks as a batch', async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'growth');
    const csv = '\ufeffno;who\r\n"A;1";"Ada ""the first"""\r\nA-2;"Bob\r\nJr"\r\n';
    const parsed = await api(server.base, 'POST', '/v1/spreadsheets/parse', {
      key: t.test,
      body: { filename: 'x.csv', content_base64: b64(csv) },
    });
    assert.equal(parsed.status, 200, parsed.text);
    assert.equal(parsed.json.format, 'csv');
    assert.deepEqual(parsed.json.preview, [
      { no: 'A;1', who: 'Ada "the first"' },
      { no: 'A-2', who: 'Bob\r\nJr' },
    ]);
    assert.deepEqual(parsed.json.fields, []);
    assert.deepEqual(parsed.json.mapping, { no: null, who: null });
    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: t.test,
      body: {
        template_id: templateId,
        spreadsheet: {
          filename: 'x.csv',
          content_base64: b64(csv),
          mapping: { no: 'number', who: 'customer.name' },
        },
      },
    });
    assert.equal(batch.status, 202, batch.text);
    const done = await waitForBatch(server.base, t.live, batch.json.id);
    assert.equal(done.counts.succeeded, 2);
    const texts = await Promise.all(
      [...(await unzipAll(Buffer.from(await (await fetch(done.zip.url)).arrayBuffer()))).values()].map((p) =>
        pdfText(p),
      ),
    );
    assert.match(texts[0] ?? '', /Invoice A;1 for Ada "the first"/);
    assert.match(texts[1] ?? '', /Invoice A-2 for Bob\s+Jr/);
  });

  it('answers bad files with invalid_request naming the problem, and queues nothing', async () => {
    const { team: free, templateId } = await teamWithTemplate(server, 'free');
    const bomb = await makeXlsx([['a'], ['x'.repeat(1024)]]);
    const cases: [string, Buffer | string, RegExp][] = [
      ['not-base64', '', /not valid base64/],
      ['pdf', Buffer.from('%PDF-1.7\n\u0000\u0001binary'), /neither CSV/],
      ['empty', '\n\n', /empty/],
      ['dup', 'a,a\n1,2', /"a" twice/],
      ['blank header', 'a,,c\n1,2,3', /Column B/],
      [
        'too many rows',
        `n\n${Array.from({ length: 101 }, (_, i) => i).join('\n')}`,
        /101 data rows; at most 100/,
      ],
    ];
    for (const [name, content, message] of cases) {
      const content_base64 = name === 'not-base64' ? '@@@@' : b64(content);
      for (const [path, body] of [
        ['/v1/spreadsheets/parse', { filename: 'f', content_base64 }],
        ['/v1/batches', { template_id: templateId, spreadsheet: { filename: 'f', content_base64 } }],
      ] as const) {
        const r = await api(server.base, 'POST', path, { key: free.test, body });
        assert.equal(r.status, 400, `${name} ${path}: ${r.text}`);
        assert.equal(r.json.error.code, 'invalid_request');
        assert.match(r.json.error.message, message, name);
      }
    }
    // A workbook that is a ZIP but no XLSX.
    const notXlsx = await api(server.base, 'POST', '/v1/spreadsheets/parse', {
      key: free.test,
      body: { filename: 'f.xlsx', content_base64: b64(bomb.subarray(0, bomb.length - 30)) },
    });
    assert.equal(notXlsx.status, 400);
    assert.equal(notXlsx.json.error.code, 'invalid_request');
    const unknownColumn = await api(server.base, 'POST', '/v1/batches', {
      key: free.test,
      body: {
        template_id: templateId,
        spreadsheet: { filename: 'f', content_base64: b64('a\n1'), email_column: 'mail' },
      },
    });
    assert.match(unknownColumn.json.error.message, /email_column names "mail"/);
    const namedAddress = await api(server.base, 'POST', '/v1/batches', {
      key: free.test,
      body: {
        template_id: templateId,
        spreadsheet: {
          filename: 'f.csv',
          content_base64: b64('a,mail\n1,"Name <a@example.com>"'),
          email_column: 'mail',
        },
      },
    });
    assert.equal(namedAddress.status, 400);
    assert.equal(namedAddress.json.error.details?.field, 'spreadsheet.email_column');
    assert.match(namedAddress.json.error.message, /Row 2, column "mail".*not one plain email address/);
    assert.equal((await api(server.base, 'GET', '/v1/batches', { key: free.test })).json.data.length, 0);
  });
});
