import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { Quire, QuireError } from '../../../clients/typescript/src/index.js';
import { makePkcs12 } from '../../helpers/certificates.js';
import { pageSizes, pdfInfo, pdfRawText, pdfText, pdfTool } from '../../helpers/pdf.js';
import { quireInProcess as runQuire } from '../../helpers/quire-process.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { checkPdfAConformance, checkProtect } from '../pdf/finishing-checks.js';
import { errorOf, formPdf, pagesHtml } from './helpers.js';

const b64 = (pdf: Buffer) => pdf.toString('base64');

/** POST /v1/pdf/inspect, /transform and /split (extensions, docs/pdf-tools.md), on one server. */
describe('PDF tools: inspect, transform, split', () => {
  let server: TestServer;
  let team: TestTeam;
  let other: TestTeam;
  let certificateId: string;
  /** A stored, signed live document of two A4 pages with metadata and an attachment. */
  let signedId: string;
  /** A three-page Chromium PDF ("Body page 1…3"), not stored. */
  let three: Buffer;
  let form: Buffer;
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 });

  const call = (route: string, body: unknown, key = team.live, headers?: Record<string, string>) =>
    api(server.base, 'POST', `/v1/pdf/${route}`, { key, body, ...(headers ? { headers } : {}) });

  before(async () => {
    other = await server.team('growth');
    const cert = await api(server.base, 'POST', '/v1/certificates', {
      key: team.live,
      body: { name: 'Tools', pkcs12_base64: makePkcs12().toString('base64'), passphrase: 'secret' },
    });
    assert.equal(cert.status, 201, cert.text);
    certificateId = cert.json.id;
    const signed = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: {
        html: pagesHtml('Terms', 2),
        format: 'A4',
        response: 'url',
        pdf_metadata: { title: 'Terms of sale', author: 'Legal', language: 'en' },
        attachments: [
          { filename: 'terms.csv', content_base64: b64(Buffer.from('a,b\n')), mime_type: 'text/csv' },
        ],
        sign: { certificate_id: certificateId, reason: 'Approved' },
      },
    });
    assert.equal(signed.status, 200, signed.text);
    signedId = signed.json.id;
    const body = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: pagesHtml('Body', 3), format: 'A4' },
    });
    assert.equal(body.status, 200, body.text);
    three = body.buffer;
    form = await formPdf();
  });

  it('inspects a stored signed document: pages, A4 sizes, metadata, attachment, valid signature', async () => {
    const r = await call('inspect', { source: { document_id: signedId }, text: true });
    assert.equal(r.status, 200, r.text);
    const info = r.json;
    assert.equal(info.pages, 2);
    for (const size of info.page_sizes) {
      assert.ok(Math.abs(size.width_pt - 595.3) < 1.5 && Math.abs(size.height_pt - 841.9) < 1.5, r.text);
      assert.equal(size.rotation, 0);
    }
    assert.equal(info.encrypted, false);
    assert.equal(info.tagged, true);
    assert.equal(info.metadata.title, 'Terms of sale');
    assert.equal(info.metadata.author, 'Legal');
    assert.equal(info.metadata.language, 'en');
    assert.deepEqual(info.attachments, [
      { filename: 'terms.csv', mime_type: 'text/csv', size: 4, relationship: 'Unspecified' },
    ]);
    assert.equal(info.signatures.length, 1, r.text);
    const [sig] = info.signatures;
    assert.equal(sig.valid, true);
    assert.equal(sig.covers_whole_document, true);
    assert.equal(sig.reason, 'Approved');
    assert.ok(sig.signer, 'the signer is named');
    assert.ok(info.fonts.length > 0 && info.fonts.every((f: { embedded: boolean }) => f.embedded));
    assert.match(info.text[1], /Terms page 2/);
    // Not a document: the log has the two made in `before` only.
    const log = await api(server.base, 'GET', '/v1/documents?limit=10', { key: team.live });
    assert.equal(log.json.data.length, 2);
  });

  it('inspects form fields of a PDF Quire did not make', async () => {
    const r = await call('inspect', { source: { pdf_base64: b64(form) } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.json.form_fields.map((f: { name: string; type: string }) => [f.name, f.type]),
      [
        ['applicant.name', 'text'],
        ['agree', 'checkbox'],
        ['country', 'choice'],
        ['size', 'radio'],
      ],
    );
    assert.deepEqual(r.json.form_fields[2].options, ['Austria', 'Germany', 'Switzerland']);
  });

  it('selects and rotates pages; the result is a recorded document with its headers', async () => {
    const r = await call('transform', {
      source: { pdf_base64: b64(three) },
      steps: [
        { op: 'pages', select: '3,1-2' },
        { op: 'rotate', pages: '1', degrees: 90 },
      ],
      filename: 'reordered.pdf',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-pages'), '3');
    assert.match(r.headers.get('content-disposition') ?? '', /reordered\.pdf/);
    const id = r.headers.get('x-document-id');
    assert.ok(id);
    const text = (await pdfRawText(r.buffer)).replace(/\s+/g, '');
    assert.ok(text.indexOf('Bodypage3') < text.indexOf('Bodypage1'), text);
    const sizes = await pageSizes(r.buffer);
    assert.equal(sizes.length, 3);
    const rot = await pdfTool('pdfinfo', ['-f', '1', '-l', '3'], r.buffer);
    assert.match(rot.stdout, /Page\s+1 rot:\s+90/);
    assert.match(rot.stdout, /Page\s+2 rot:\s+0/);
    const doc = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: team.live });
    assert.equal(doc.status, 200, doc.text);
    assert.equal(doc.json.status, 'succeeded');
    assert.equal(doc.json.pages, 3);
  });

  it('merges a stored document with a sent PDF and stamps every page; answers a signed link', async () => {
    const r = await call('transform', {
      source: { pdf_base64: b64(three) },
      steps: [
        { op: 'merge', append: [{ document_id: signedId }] },
        { op: 'stamp', text: 'COPY' },
      ],
      response: 'url',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.pages, 5);
    const file = await fetch(r.json.url);
    const pdf = Buffer.from(await file.arrayBuffer());
    assert.equal((await pdfInfo(pdf)).pages, 5);
    for (let page = 1; page <= 5; page++) {
      const { stdout } = await pdfTool('pdftotext', ['-raw', '-f', String(page), '-l', String(page)], pdf, [
        '-',
      ]);
      assert.match(stdout.replace(/\s+/g, ''), /COPY/, `stamp on page ${page}`);
    }
  });

  it('fills a form (kept as a form), and fills and flattens it (fields gone, values on the page)', async () => {
    const fields = { 'applicant.name': 'Ada Lovelace', agree: true, country: 'Germany', size: 'large' };
    const filled = await call('transform', {
      source: { pdf_base64: b64(form) },
      steps: [{ op: 'fill', fields }],
    });
    assert.equal(filled.status, 200, filled.text);
    const seen = await call('inspect', { source: { pdf_base64: b64(filled.buffer) } });
    assert.deepEqual(
      seen.json.form_fields.map((f: { name: string; value: unknown }) => [f.name, f.value]),
      [
        ['applicant.name', 'Ada Lovelace'],
        ['agree', true],
        ['country', 'Germany'],
        ['size', 'large'],
      ],
    );
    const flat = await call('transform', {
      source: { pdf_base64: b64(form) },
      steps: [{ op: 'fill', fields }, { op: 'flatten' }],
    });
    assert.equal(flat.status, 200, flat.text);
    const after = await call('inspect', { source: { pdf_base64: b64(flat.buffer) } });
    assert.deepEqual(after.json.form_fields, []);
    const text = await pdfText(flat.buffer);
    assert.match(text, /Ada Lovelace/);
    assert.match(text, /Germany/);
  });

  it('converts a Chromium PDF to PDF/A-2b', async () => {
    const r = await call('transform', {
      source: { pdf_base64: b64(three) },
      steps: [{ op: 'pdf_a', level: '2b' }],
    });
    assert.equal(r.status, 200, r.text);
    await checkPdfAConformance(r.buffer, '2b');
  });

  it('signs a sent PDF so that pdfsig reports it valid', async () => {
    const r = await call('transform', {
      source: { pdf_base64: b64(form) },
      steps: [{ op: 'sign', certificate_id: certificateId, reason: 'Received' }],
    });
    assert.equal(r.status, 200, r.text);
    const { stdout } = await pdfTool('pdfsig', [], r.buffer);
    assert.match(stdout, /Signature Validation: Signature is Valid\./, stdout);
    assert.match(stdout, /Total document signed/, stdout);
  });

  it('protects with AES-256: the file opens only with its password; inspect needs it too', async () => {
    const protect = { owner_password: 'owner-pw', user_password: 'user-pw' };
    const r = await call('transform', {
      source: { pdf_base64: b64(three) },
      steps: [{ op: 'protect', ...protect }],
    });
    assert.equal(r.status, 200, r.text);
    await checkProtect(r.buffer, { protect });
    const source = { pdf_base64: b64(r.buffer) };
    const without = await call('inspect', { source });
    assert.equal(without.status, 400, without.text);
    assert.equal(errorOf(without).details?.field, 'password');
    const wrong = await call('inspect', { source, password: 'nope' });
    assert.equal(wrong.status, 400, wrong.text);
    assert.equal(errorOf(wrong).details?.field, 'password');
    const right = await call('inspect', { source, password: 'user-pw' });
    assert.equal(right.status, 200, right.text);
    assert.equal(right.json.encrypted, true);
    assert.equal(right.json.pages, 3);
  });

  it('splits into a ZIP of the right page counts, by ranges and by every', async () => {
    const byRanges = await call('split', { source: { pdf_base64: b64(three) }, ranges: ['1', '2-3'] });
    assert.equal(byRanges.status, 200, byRanges.text);
    assert.equal(byRanges.headers.get('content-type'), 'application/zip');
    const parts = unzipSync(new Uint8Array(byRanges.buffer));
    assert.deepEqual(Object.keys(parts), ['document-1.pdf', 'document-2.pdf']);
    assert.equal((await pdfInfo(Buffer.from(parts['document-1.pdf'] as Uint8Array))).pages, 1);
    assert.equal((await pdfInfo(Buffer.from(parts['document-2.pdf'] as Uint8Array))).pages, 2);
    const every = await call('split', { source: { document_id: signedId }, every: 1 });
    assert.equal(every.status, 200, every.text);
    assert.equal(Object.keys(unzipSync(new Uint8Array(every.buffer))).length, 2);
  });

  it('refuses bad input with the field to fix', async () => {
    const damaged = await call('inspect', { source: { pdf_base64: b64(three.subarray(0, 400)) } });
    assert.equal(damaged.status, 400, damaged.text);
    assert.equal(errorOf(damaged).details?.field, 'source.pdf_base64');
    const notPdf = await call('transform', {
      source: { pdf_base64: b64(Buffer.from('hello')) },
      steps: [{ op: 'flatten' }],
    });
    assert.equal(errorOf(notPdf).details?.field, 'source.pdf_base64');
    const foreign = await call('inspect', { source: { document_id: signedId } }, other.live);
    assert.equal(foreign.status, 404, foreign.text);
    assert.equal(errorOf(foreign).code, 'document_not_found');
    const testKey = await call('inspect', { source: { document_id: signedId } }, team.test);
    assert.equal(testKey.status, 404, 'a test key does not read a live document');
    const outside = await call('transform', {
      source: { pdf_base64: b64(three) },
      steps: [
        { op: 'rotate', pages: 'all', degrees: 90 },
        { op: 'pages', select: '2-7' },
      ],
    });
    assert.equal(outside.status, 400, outside.text);
    assert.equal(errorOf(outside).details?.field, 'steps[1].select');
    const unknownField = await call('transform', {
      source: { pdf_base64: b64(form) },
      steps: [{ op: 'fill', fields: { nope: 'x' } }],
    });
    assert.equal(errorOf(unknownField).details?.field, 'steps[0].fields.nope');
    const badCert = await call('transform', {
      source: { pdf_base64: b64(form) },
      steps: [{ op: 'sign', certificate_id: 'cert_missing' }],
    });
    assert.equal(badCert.status, 400, badCert.text);
    assert.equal(errorOf(badCert).details?.field, 'steps[0].certificate_id');
    const protectFirst = await call('transform', {
      source: { pdf_base64: b64(form) },
      steps: [{ op: 'protect', owner_password: 'x' }, { op: 'flatten' }],
    });
    assert.equal(errorOf(protectFirst).details?.field, 'steps[0].op');
    const tooMany = await call('transform', {
      source: { pdf_base64: b64(three) },
      steps: [{ op: 'pages', select: Array.from({ length: 17 }, () => '1-3').join(',') }],
    });
    assert.equal(tooMany.status, 413, tooMany.text);
    assert.equal(errorOf(tooMany).code, 'document_too_large');
    assert.equal(errorOf(tooMany).details?.field, 'steps[0]');
    const both = await call('split', { source: { pdf_base64: b64(three) }, ranges: ['1'], every: 1 });
    assert.equal(both.status, 400, both.text);
    const split = await call('split', { source: { pdf_base64: b64(three) }, ranges: ['1', '4'] });
    assert.equal(errorOf(split).details?.field, 'ranges[1]');
  });

  it('replays a transform sent again with the same Idempotency-Key', async () => {
    const body = { source: { pdf_base64: b64(three) }, steps: [{ op: 'pages', select: 'last' }] };
    const headers = { 'idempotency-key': 'tools-replay-1' };
    const first = await call('transform', body, team.live, headers);
    assert.equal(first.status, 200, first.text);
    const again = await call('transform', body, team.live, headers);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('x-document-id'), first.headers.get('x-document-id'));
    assert.equal((await pdfInfo(again.buffer)).pages, 1);
  });

  it('is in the TypeScript client: quire.pdf.inspect, .transform and .split', async () => {
    const quire = new Quire({ baseUrl: server.base, apiKey: team.live });
    const source = { pdf_base64: b64(three) };
    const info = await quire.pdf.inspect({ source });
    assert.equal(info.pages, 3);
    const file = await quire.pdf.transform({ source, steps: [{ op: 'pages', select: '2-' }] });
    assert.equal(file.pages, 2);
    assert.ok(file.documentId);
    const zip = await quire.pdf.split({ source, every: 2 });
    assert.deepEqual(Object.keys(unzipSync(zip)), ['document-1.pdf', 'document-2.pdf']);
    await assert.rejects(
      quire.pdf.transform({ source, steps: [{ op: 'pages', select: '9' }] }),
      (err) => err instanceof QuireError && err.code === 'invalid_request',
    );
    // The POST /pdf method itself is still a call.
    assert.equal((await quire.pdf({ html: '<p>x</p>' })).pages, 1);
  });

  it('is in the CLI: quire pdf inspect|transform|split FILE, JSON out', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-pdf-cli-'));
    try {
      const file = path.join(dir, 'form.pdf');
      writeFileSync(file, form);
      const inspected = await runQuire({}, 'pdf', 'inspect', file);
      assert.equal(inspected.code, 0, inspected.stderr);
      assert.equal(JSON.parse(inspected.stdout).form_fields.length, 4);
      const out = path.join(dir, 'flat.pdf');
      const steps = JSON.stringify([{ op: 'fill', fields: { agree: true } }, { op: 'flatten' }]);
      const made = await runQuire({}, 'pdf', 'transform', file, '--steps', steps, '--out', out);
      assert.equal(made.code, 0, made.stderr);
      assert.equal(JSON.parse(made.stdout).pages, 1);
      assert.equal((await pdfInfo(readFileSync(out))).pages, 1);
      const refused = await runQuire({}, 'pdf', 'split', file, '--ranges', '2');
      // A refused file sets the exit code (1); in this process it is the test runner's: read it and reset it.
      assert.equal(process.exitCode, 1);
      process.exitCode = undefined;
      assert.equal(JSON.parse(refused.stdout).error.field, 'ranges[0]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The tools' time budget is the operator's (QUIRE_PDF_TOOL_TIMEOUT_MS): a qpdf that does not finish within it
 * is stopped and the file refused, naming the budget. The qpdf here never finishes (a stand-in that sleeps,
 * first on PATH for this test only).
 */
describe('PDF tools: the time budget QUIRE_PDF_TOOL_TIMEOUT_MS', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team } = both), { pdfToolTimeoutMs: 1_000 });

  /** Runs `work` with a stand-in qpdf first on PATH: `script` (sh) runs for every qpdf call. */
  const withQpdf = async (script: string, work: () => Promise<void>) => {
    const bin = mkdtempSync(path.join(tmpdir(), 'quire-slow-qpdf-'));
    const path0 = process.env.PATH;
    try {
      writeFileSync(path.join(bin, 'qpdf'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
      process.env.PATH = `${bin}:${path0}`;
      await work();
    } finally {
      process.env.PATH = path0;
      rmSync(bin, { recursive: true, force: true });
    }
  };

  it('stops a qpdf over the budget and refuses the file with 400, naming the field and the 1 s', async () => {
    await withQpdf('exec sleep 60', async () => {
      const r = await api(server.base, 'POST', '/v1/pdf/inspect', {
        key: team.live,
        body: { source: { pdf_base64: b64(Buffer.from('%PDF-1.7\n%%EOF\n')) } },
      });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.code, 'invalid_request');
      assert.equal(r.json.error.details.field, 'source.pdf_base64');
      assert.match(r.json.error.message, /took longer than 1 s/);
    });
  });

  it('a step whose qpdf runs over the write budget (twice the read budget) is refused naming the step and the 2 s', async () => {
    const pdf = (await api(server.base, 'POST', '/v1/pdf', { key: team.test, body: { html: '<p>x</p>' } }))
      .buffer;
    // Only the rotation never finishes: reading the file and writing it out plainly are the real qpdf's.
    await withQpdf('case "$*" in *--rotate*) exec sleep 60;; esac\nexec /usr/bin/qpdf "$@"', async () => {
      const r = await api(server.base, 'POST', '/v1/pdf/transform', {
        key: team.live,
        body: { source: { pdf_base64: b64(pdf) }, steps: [{ op: 'rotate', pages: 'all', degrees: 90 }] },
      });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.code, 'invalid_request');
      assert.equal(r.json.error.details.field, 'steps[0]');
      assert.match(r.json.error.message, /steps\[0\] \("rotate"\) took longer than 2 s/);
    });
  });
});
