import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { EINVOICE_FIXTURES } from '../../fixtures/einvoice-fixtures.js';
import { pdfInfo, pdfText, pdfTool, qpdfCheck } from '../../helpers/pdf.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { unzipAll, waitForBatch } from '../batches/helpers.js';
import { checkPdfAConformance } from '../pdf/finishing-checks.js';
import { createTemplate } from '../templates/helpers.js';

const run = promisify(execFile);

/** `n` pages, each saying `label page i`. */
const pagesHtml = (label: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p style="${i > 0 ? 'break-before:page' : ''}">${label} page ${i + 1}</p>`,
  ).join('');

/** The file run through qpdf with `args` (encrypting, truncating a copy…). */
async function qpdfCopy(pdf: Buffer, args: string[]): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-merge-test-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    await run('qpdf', [path.join(dir, 'in.pdf'), ...args, path.join(dir, 'out.pdf')]);
    return readFileSync(path.join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A page's text in content order without spaces: rotated marks come out whole (pdftotext -raw). */
async function rawText(pdf: Buffer, page: number): Promise<string> {
  const args = ['-raw', '-f', String(page), '-l', String(page)];
  return (await pdfTool('pdftotext', args, pdf, ['-'])).stdout.replace(/\s+/g, '');
}

/** Where each label first appears in the text (-1: nowhere). */
const order = (text: string, labels: string[]) => labels.map((l) => text.indexOf(l));

function errorOf(r: { json: unknown }) {
  return (r.json as { error: { code: string; message: string; details?: { field?: string } } }).error;
}

describe('merging PDFs: prepend and append (extension)', () => {
  let server: TestServer;
  let team: TestTeam;
  let other: TestTeam;
  /** A stored live document of two pages ("Terms page 1/2"), and a test one. */
  let termsId: string;
  let testDocId: string;
  let cover: Buffer;
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 });
  before(async () => {
    other = await server.team('growth');
    const terms = await pdf({ html: pagesHtml('Terms', 2), response: 'url' });
    assert.equal(terms.status, 200, terms.text);
    termsId = terms.json.id as string;
    const testDoc = await pdf({ html: pagesHtml('Sandbox', 1), response: 'url' }, team.test);
    assert.equal(testDoc.status, 200, testDoc.text);
    testDocId = testDoc.json.id as string;
    const coverPdf = await pdf({ html: pagesHtml('Cover', 1) });
    assert.equal(coverPdf.status, 200, coverPdf.text);
    cover = coverPdf.buffer;
  });

  function pdf(body: Record<string, unknown>, key = team.live) {
    return api(server.base, 'POST', '/v1/pdf', { key, body });
  }

  it('prepends an uploaded PDF and appends a stored document: pages, x-pages and text in order', async () => {
    const r = await pdf({
      html: pagesHtml('Body', 3),
      prepend: [{ pdf_base64: cover.toString('base64') }],
      append: [{ document_id: termsId }],
      response: 'url',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.pages, 6);
    const file = Buffer.from(await (await fetch(r.json.url as string)).arrayBuffer());
    assert.equal((await pdfInfo(file)).pages, 6);
    const text = await pdfText(file);
    const at = order(text, ['Cover page 1', 'Body page 1', 'Body page 3', 'Terms page 1', 'Terms page 2']);
    assert.ok(
      at.every((n) => n >= 0),
      `every part is there: ${text}`,
    );
    assert.deepEqual(
      [...at].sort((a, b) => a - b),
      at,
      'cover, body, terms in this order',
    );
    assert.match(await pdfText(file, 1), /Cover page 1/);
    assert.match(await pdfText(file, 5), /Terms page 1/);
    await qpdfCheck(file);
    const read = await api(server.base, 'GET', `/v1/pdf/${r.json.id}`, { key: team.live });
    assert.equal(read.json.pages, 6, 'the document record counts the merged pages');
  });

  it('answers the binary with x-pages of the merged document; several sources keep their order', async () => {
    const r = await pdf({
      html: pagesHtml('Middle', 1),
      prepend: [{ document_id: termsId }, { pdf_base64: cover.toString('base64') }],
      append: [{ pdf_base64: cover.toString('base64') }, { document_id: termsId }],
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-pages'), '7');
    const text = await pdfText(r.buffer);
    const pages = await Promise.all([1, 3, 4, 5, 6].map((p) => pdfText(r.buffer, p)));
    assert.match(pages[0] ?? '', /Terms page 1/);
    assert.match(pages[1] ?? '', /Cover page 1/);
    assert.match(pages[2] ?? '', /Middle page 1/);
    assert.match(pages[3] ?? '', /Cover page 1/);
    assert.match(pages[4] ?? '', /Terms page 1/);
    assert.doesNotMatch(text, /TEST DOCUMENT/, 'a live document has no test mark');
  });

  it("refuses another team's document and an unknown id with document_not_found (404) naming the source", async () => {
    const theirs = await pdf({ html: '<p>x</p>', append: [{ document_id: termsId }] }, other.live);
    assert.equal(theirs.status, 404, theirs.text);
    assert.equal(errorOf(theirs).code, 'document_not_found');
    assert.equal(errorOf(theirs).details?.field, 'append[0].document_id');
    const unknown = await pdf({
      html: '<p>x</p>',
      prepend: [
        { pdf_base64: cover.toString('base64') },
        { document_id: '00000000-0000-4000-8000-000000000000' },
      ],
    });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(errorOf(unknown).details?.field, 'prepend[1].document_id');
  });

  it('keeps modes apart: a test key cannot see a live document, a live document cannot take test pages', async () => {
    const fromTest = await pdf({ html: '<p>x</p>', append: [{ document_id: termsId }] }, team.test);
    assert.equal(fromTest.status, 404, fromTest.text);
    assert.equal(errorOf(fromTest).code, 'document_not_found');
    const fromLive = await pdf({ html: '<p>x</p>', append: [{ document_id: testDocId }] });
    assert.equal(fromLive.status, 400, fromLive.text);
    assert.equal(errorOf(fromLive).code, 'invalid_request');
    assert.match(errorOf(fromLive).message, /test document/);
    const ok = await pdf({ html: '<p>Own</p>', append: [{ document_id: testDocId }] }, team.test);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.headers.get('x-pages'), '2');
    const merged = await rawText(ok.buffer, 2);
    assert.equal(
      merged.split('TESTDOCUMENT').length - 1,
      1,
      `a test document's page is marked once: ${merged}`,
    );
  });

  it('marks uploaded pages of a test document with the test mark (the whole document is a test document)', async () => {
    const r = await pdf(
      { html: pagesHtml('Sandbox body', 1), append: [{ pdf_base64: cover.toString('base64') }] },
      team.test,
    );
    assert.equal(r.status, 200, r.text);
    const appended = await rawText(r.buffer, 2);
    assert.match(appended, /Coverpage1/);
    assert.match(appended, /TESTDOCUMENT/, 'the merged page carries the mark');
    assert.match(await rawText(r.buffer, 1), /TESTDOCUMENT/, 'as the rendered page does');
  });

  it('refuses damaged, encrypted and non-PDF sources with invalid_request naming the field', async () => {
    const truncated = cover.subarray(0, Math.floor(cover.length / 3));
    const locked = await qpdfCopy(cover, ['--encrypt', 'user', 'owner', '256', '--']);
    const ownerOnly = await qpdfCopy(cover, ['--encrypt', '', 'owner', '256', '--']);
    const cases: Array<[string, unknown, RegExp]> = [
      [
        'append[1].pdf_base64',
        [{ document_id: termsId }, { pdf_base64: truncated.toString('base64') }],
        /damaged/,
      ],
      ['append[0].pdf_base64', [{ pdf_base64: locked.toString('base64') }], /encrypted/],
      ['append[0].pdf_base64', [{ pdf_base64: ownerOnly.toString('base64') }], /encrypted/],
      ['append[0].pdf_base64', [{ pdf_base64: Buffer.from('hello').toString('base64') }], /not a PDF/],
      ['append[0].pdf_base64', [{ pdf_base64: '***' }], /base64/],
    ];
    const logged = async () =>
      (await api(server.base, 'GET', '/v1/documents?limit=100', { key: team.live })).json.data
        .length as number;
    const before = await logged();
    for (const [field, append, message] of cases) {
      const r = await pdf({ html: '<p>x</p>', append });
      assert.equal(r.status, 400, `${field}: ${r.text}`);
      assert.equal(errorOf(r).code, 'invalid_request');
      assert.equal(errorOf(r).details?.field, field);
      assert.match(errorOf(r).message, message);
    }
    assert.equal(await logged(), before, 'a refused source leaves no failed document, as a wrong field does');
  });

  it('applies the 50-page limit to the merged document (document_too_large)', async () => {
    const big = await pdf({ html: pagesHtml('Long', 30), response: 'url' });
    assert.equal(big.status, 200, big.text);
    const twice = [{ document_id: big.json.id }, { document_id: big.json.id }];
    const before = await pdf({ html: '<p>x</p>', append: twice });
    assert.equal(before.status, 413, before.text);
    assert.equal(errorOf(before).code, 'document_too_large');
    // 30 merged pages fit alone, but not with 21 rendered ones: refused once the pages are known.
    const after = await pdf({ html: pagesHtml('Many', 21), prepend: [{ document_id: big.json.id }] });
    assert.equal(after.status, 413, after.text);
    assert.equal(errorOf(after).code, 'document_too_large');
    assert.match(errorOf(after).message, /merged PDF has more than 50 pages/);
    const fits = await pdf({ html: pagesHtml('Many', 20), prepend: [{ document_id: big.json.id }] });
    assert.equal(fits.status, 200, fits.text);
    assert.equal(fits.headers.get('x-pages'), '50');
  });

  it('merges before PDF/A: a merged PDF/A-3b passes the PDF/A checks, and stamp reaches every page', async () => {
    const r = await pdf({
      html: '<html lang="en"><title>Pack</title><p>Archived body</p></html>',
      prepend: [{ document_id: termsId }],
      pdf_a: '3b',
      stamp: { text: 'ARCHIVE' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-pages'), '3');
    await checkPdfAConformance(r.buffer, '3b');
    for (const page of [1, 2, 3]) assert.match(await rawText(r.buffer, page), /ARCHIVE/);
  });

  it('appends terms to a Factur-X e-invoice: still PDF/A-3b with its XML, not PDF/UA-identified', async () => {
    const fixture = EINVOICE_FIXTURES.find((f) => f.name === 'two-rates-allowances-prepaid');
    assert.ok(fixture);
    const r = await pdf({
      e_invoice: { standard: 'factur-x', profile: 'en16931', invoice: fixture.invoice },
      append: [{ document_id: termsId }],
    });
    assert.equal(r.status, 200, r.text);
    const rendered = Number(r.headers.get('x-pages')) - 2;
    assert.ok(rendered >= 1, `the invoice's own pages: ${rendered}`);
    await checkPdfAConformance(r.buffer, '3b');
    assert.match(await pdfText(r.buffer, rendered + 2), /Terms page 2/);
    assert.match((await pdfTool('pdfdetach', ['-list'], r.buffer)).stdout, /factur-x\.xml/);
    assert.doesNotMatch((await pdfTool('pdfinfo', ['-meta'], r.buffer)).stdout, /pdfuaid:part/);
  });

  it('encrypts the merged file with protect (the last step sees every page)', async () => {
    const r = await pdf({
      html: pagesHtml('Secret', 1),
      append: [{ document_id: termsId }],
      protect: { owner_password: 'owner-pw', user_password: 'open-me' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-pages'), '3');
    assert.notEqual((await pdfTool('pdftotext', [], r.buffer, ['-'])).code, 0, 'needs the password');
    const text = (await pdfTool('pdftotext', ['-upw', 'open-me'], r.buffer, ['-'])).stdout;
    assert.ok(
      order(text, ['Secret page 1', 'Terms page 2']).every((n) => n >= 0),
      text,
    );
  });

  it('refuses pdf_ua with merging (merged pages carry no tags)', async () => {
    const r = await pdf({ html: '<p>x</p>', pdf_ua: true, append: [{ document_id: termsId }] });
    assert.equal(r.status, 400, r.text);
    assert.equal(errorOf(r).details?.field, 'pdf_ua');
  });

  it('checks sources of an async request at once, and merges when the job runs', async () => {
    const refused = await pdf({
      html: '<p>x</p>',
      async: true,
      append: [{ document_id: '00000000-0000-4000-8000-000000000000' }],
    });
    assert.equal(refused.status, 404, refused.text);
    const queued = await pdf({
      html: pagesHtml('Queued', 1),
      async: true,
      append: [{ document_id: termsId }],
    });
    assert.equal(queued.status, 202, queued.text);
    const done = await waitFor('the queued merge', async () => {
      const r = await api(server.base, 'GET', `/v1/pdf/${queued.json.id}`, { key: team.live });
      return r.json.status === 'succeeded' || r.json.status === 'failed' ? r.json : null;
    });
    assert.equal(done.status, 'succeeded');
    assert.equal(done.pages, 3);
  });

  it("merges from a template's settings and in a batch, where every item gets the pages", async () => {
    const created = await createTemplate(server.base, team.live, {
      name: 'With terms',
      html: '<p>Invoice {{ number }}</p>',
      settings: { mode: 'fast', append: [{ document_id: termsId }] },
    });
    const template = created.id as string;
    const one = await pdf({ template_id: template, data: { number: 'A-1' } });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.headers.get('x-pages'), '3');
    assert.match(await pdfText(one.buffer, 3), /Terms page 2/);
    // The batch's prepend goes beside the template's append (each field replaces the same field only).
    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: team.live,
      body: {
        template_id: template,
        items: [{ data: { number: 'B-1' } }, { data: { number: 'B-2' } }],
        prepend: [{ pdf_base64: cover.toString('base64') }],
      },
    });
    assert.equal(batch.status, 202, batch.text);
    const done = await waitForBatch(server.base, team.live, batch.json.id as string);
    assert.equal(done.counts.succeeded, 2, JSON.stringify(done));
    const files = [
      ...(await unzipAll(Buffer.from(await (await fetch(done.zip.url)).arrayBuffer()))).values(),
    ];
    assert.equal(files.length, 2);
    for (const file of files) {
      assert.equal((await pdfInfo(file)).pages, 4);
      assert.match(await pdfText(file, 1), /Cover page 1/);
      assert.match(await pdfText(file, 2), /Invoice B-/);
      assert.match(await pdfText(file, 4), /Terms page 2/);
    }
    const refused = await api(server.base, 'POST', '/v1/batches', {
      key: team.live,
      body: { template_id: template, items: [{ data: {} }], append: [{ document_id: testDocId }] },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(errorOf(refused).details?.field, 'append[0].document_id');
  });
});
