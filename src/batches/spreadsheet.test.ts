import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ZipFile } from 'yazl';
import { rng } from '../../test/helpers/random.js';
import { makeXlsx } from '../../test/helpers/xlsx.js';
import { decodeBase64 } from '../shared/base64.js';
import { isAppError } from '../shared/errors.js';
import { readSpreadsheet } from './spreadsheet.js';
import { spreadsheetItems, suggestMapping } from './spreadsheet-items.js';
import { MAX_XLSX_UNPACKED_BYTES } from './xlsx-unpack.js';

const invalid = (pattern: RegExp) => (err: unknown) =>
  isAppError(err) && err.code === 'invalid_request' && pattern.test(err.message);

/**
 * RFC 4180 writing: a field with the separator, a quote or a line break is quoted, quotes doubled. A
 * one-column file has no separator to detect, so there any candidate separator is quoted too.
 */
function csvField(value: string, delimiter: string, width: number): string {
  const separators = width === 1 ? [',', ';', '\t'] : [delimiter];
  return /["\r\n]/.test(value) || separators.some((s) => value.includes(s)) || value !== value.trim()
    ? `"${value.replace(/"/g, '""')}"`
    : value;
}

function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(data, name);
  zip.end();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

describe('spreadsheet reading', () => {
  it('property: random quoted CSV fields round-trip with , ; or tab, with and without BOM, LF or CRLF', async () => {
    const r = rng(2026);
    const pieces = ['a', 'Z', '1', ' ', ',', ';', '\t', '"', '""', '\n', '\r\n', 'é', '💥', 'x y', '='];
    for (let n = 0; n < 300; n++) {
      const delimiter = r.pick([',', ';', '\t']);
      const newline = r.pick(['\n', '\r\n']);
      const width = 1 + r.int(5);
      const columns = Array.from({ length: width }, (_, i) => `col ${i}${r.pick(['', ',', ';', '"'])}`);
      const rows = Array.from({ length: 1 + r.int(6) }, () =>
        Array.from({ length: width }, () => Array.from({ length: r.int(6) }, () => r.pick(pieces)).join('')),
      );
      // A row that is all empty is skipped by design; give each row a value.
      for (const row of rows) row[0] = `v${row[0]}`;
      const text = [columns, ...rows]
        .map((row) => row.map((v) => csvField(v, delimiter, width)).join(delimiter))
        .join(newline);
      const bytes = Buffer.from((r.next() < 0.5 ? '\ufeff' : '') + text + (r.next() < 0.5 ? newline : ''));
      const sheet = await readSpreadsheet(bytes, 100);
      assert.equal(sheet.format, 'csv');
      assert.deepEqual(sheet.columns, columns, JSON.stringify(text));
      assert.deepEqual(sheet.rows, rows, JSON.stringify(text));
    }
  });

  it('refuses empty sheets, empty or duplicate headers, too many rows, binary files and bad base64', async () => {
    const csv = (text: string, max = 100) => readSpreadsheet(Buffer.from(text), max);
    await assert.rejects(csv(''), invalid(/empty/));
    await assert.rejects(csv('a,b\n'), invalid(/no data rows/));
    await assert.rejects(csv('a,,b\n1,2,3'), invalid(/Column B .* no name/));
    await assert.rejects(csv('a,b,a\n1,2,3'), invalid(/"a" twice \(columns A and C\)/));
    await assert.rejects(csv('a\n1\n2\n3', 2), invalid(/3 data rows; at most 2/));
    await assert.rejects(csv('a,b\n1,2,3'), invalid(/Row 2 has values beyond the 2 named columns/));
    await assert.rejects(csv('a,b\n"1,2'), invalid(/unclosed quoted field/));
    await assert.rejects(
      readSpreadsheet(Buffer.from([0x25, 0x50, 0x44, 0x46, 0, 1, 2, 0xff]), 10),
      invalid(/neither CSV/),
    );
    await assert.rejects(
      readSpreadsheet(await zipOf({ 'a.txt': Buffer.from('x') }), 10),
      invalid(/not a readable XLSX/),
    );
    assert.throws(() => decodeBase64('not base64!'), invalid(/not valid base64/));
    assert.throws(() => decodeBase64('YQ='), invalid(/not valid base64/));
    assert.equal(decodeBase64('YW\nJj').toString(), 'abc');
  });

  it('fuzz: a corrupted XLSX reads or is invalid_request, never another error', async () => {
    const good = await makeXlsx([
      ['Number', 'Amount', 'Due'],
      ['A-1', 12.5, new Date(Date.UTC(2026, 1, 3))],
    ]);
    const r = rng(99);
    for (let n = 0; n < 200; n++) {
      const bad = Buffer.from(good);
      for (let k = 1 + r.int(8); k > 0; k--) bad[r.int(bad.length)] = r.int(256);
      const cut = r.next() < 0.2 ? bad.subarray(0, r.int(bad.length)) : bad;
      try {
        await readSpreadsheet(cut, 100);
      } catch (err) {
        assert.ok(isAppError(err) && err.code === 'invalid_request', String(err));
      }
    }
  });

  it('refuses a zip bomb by its declared sizes before inflating it; parts it does not need are never inflated', async () => {
    const workbook = await makeXlsx([['a'], [1]]);
    const { unzipSync } = await import('fflate');
    const parts = Object.fromEntries(
      Object.entries(unzipSync(workbook)).map(([k, v]) => [k, Buffer.from(v)]),
    );
    const bomb = await zipOf({
      ...parts,
      'xl/worksheets/sheet1.xml': Buffer.alloc(MAX_XLSX_UNPACKED_BYTES + 1, 0x20),
    });
    assert.ok(bomb.length < 1024 * 1024, 'it compresses to almost nothing');
    await assert.rejects(readSpreadsheet(bomb, 10), invalid(/unpacks to more than 64 MB/));
    // A huge part no reader needs (here an image) costs nothing.
    const withImage = await zipOf({
      ...parts,
      'xl/media/huge.png': Buffer.alloc(MAX_XLSX_UNPACKED_BYTES + 1),
    });
    assert.deepEqual((await readSpreadsheet(withImage, 10)).rows, [[1]]);
  });

  it('maps columns to dotted paths, builds nested data, and takes each row address from email_column', async () => {
    const content = Buffer.from('No;Name;City;Mail\nA-1;Ada;Oslo;ada@example.com\nA-2;Bob;;\n').toString(
      'base64',
    );
    const items = await spreadsheetItems(
      {
        filename: 'x.csv',
        content_base64: content,
        mapping: { No: 'number', Name: 'customer.name', City: 'customer.address.city' },
        email_column: 'Mail',
      },
      100,
      { email: { to: 'batch@example.com', subject: 'Your invoice' } },
      readSpreadsheet,
    );
    assert.deepEqual(items, [
      {
        data: { number: 'A-1', customer: { name: 'Ada', address: { city: 'Oslo' } } },
        deliver: { email: { to: 'ada@example.com', subject: 'Your invoice' } },
      },
      { data: { number: 'A-2', customer: { name: 'Bob', address: { city: '' } } } },
    ]);
    // Extension `defaults`: each row starts from its own copy; a mapped cell wins over a default.
    const filled = await spreadsheetItems(
      {
        filename: 'x.csv',
        content_base64: content,
        mapping: { No: 'number', Name: 'customer.name' },
        defaults: { number: 'sample', customer: { name: 'Sample', vat: 'DE1' }, currency: 'EUR' },
      },
      100,
      undefined,
      readSpreadsheet,
    );
    assert.deepEqual(
      filled.map((item) => item.data),
      [
        { number: 'A-1', customer: { name: 'Ada', vat: 'DE1' }, currency: 'EUR' },
        { number: 'A-2', customer: { name: 'Bob', vat: 'DE1' }, currency: 'EUR' },
      ],
    );
    const bad = (mapping: Record<string, string>, email?: string) =>
      spreadsheetItems(
        { filename: 'x.csv', content_base64: content, mapping, ...(email ? { email_column: email } : {}) },
        100,
        undefined,
        readSpreadsheet,
      );
    await assert.rejects(bad({ Nope: 'x' }), invalid(/"Nope", which is not a column/));
    await assert.rejects(bad({ No: 'a..b' }), invalid(/not a field path/));
    await assert.rejects(bad({ No: '__proto__.x' }), invalid(/not a field path/));
    await assert.rejects(bad({ No: 'customer', Name: 'customer.name' }), invalid(/overlapping paths/));
    await assert.rejects(
      bad({}, 'Name'),
      invalid(/Row 2, column "Name": "Ada" is not one plain email address/),
    );
  });

  it('suggests a mapping case- and punctuation-insensitively; ambiguous or unknown columns get null', () => {
    assert.deepEqual(
      suggestMapping(
        ['Number', 'Customer Name', 'city', 'Total €', 'billing_city'],
        ['number', 'customer.name', 'billing.city', 'shipping.city', 'total'],
      ),
      {
        Number: 'number',
        'Customer Name': 'customer.name',
        city: null,
        'Total €': 'total',
        billing_city: 'billing.city',
      },
    );
  });
});
