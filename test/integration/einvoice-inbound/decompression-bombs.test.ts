import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from '@cantoo/pdf-lib';
import { pdfWithObjectStream, zeroBomb } from '../../helpers/pdf-filters.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

const SAMPLE = 'tools/einvoice-validate/samples/pdf/zf24_EN16931_Einfach_fx.pdf';
const MAX_XML_BYTES = 20 * 1024 * 1024;
/** What a refusal may take once the worker runs: inflating 20 MB natively is ~20 ms, a 3 GB bomb ~3 s. */
const REFUSED_WITHIN_MS = 5_000;
/** The finding: +1.36 GB of RSS for one 3 MB file. A capped inflate stays far under this. */
const RSS_GROWTH_LIMIT = 400 * 1024 * 1024;

/** The Factur-X sample with its factur-x.xml stream replaced by `contents` under `filters`. */
async function sampleWithInvoiceStream(filters: string[], contents: Uint8Array): Promise<Buffer> {
  const doc = await PDFDocument.load(readFileSync(SAMPLE), { updateMetadata: false });
  const names = doc.catalog
    .lookup(PDFName.of('Names'), PDFDict)
    .lookup(PDFName.of('EmbeddedFiles'), PDFDict)
    .lookup(PDFName.of('Names'), PDFArray);
  const spec = names.lookup(1, PDFDict);
  const ref = spec.lookup(PDFName.of('EF'), PDFDict).get(PDFName.of('F'));
  assert.ok(ref instanceof PDFRef, 'the sample refers to its XML stream indirectly');
  const dict = doc.context.obj({
    Type: 'EmbeddedFile',
    Subtype: 'text/xml',
    Filter: filters.length === 1 ? filters[0] : filters,
  });
  doc.context.assign(ref, PDFRawStream.of(dict, contents));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe('POST /v1/e-invoices/validate: compressed streams in a received PDF are inflated under a cap', () => {
  let server: TestServer;
  let key = '';

  before(async () => {
    // Long enough that no refusal here can be the time limit's: the tests assert the cap's own refusal.
    server = await startTestServer({ einvoiceCheckTimeoutMs: 60_000 });
    key = (await server.team('growth')).live;
    // Starts the worker (module loading is not what the timings below measure).
    const warm = await validate(Buffer.from('hello'));
    assert.equal(warm.status, 400, warm.text);
  });
  after(async () => {
    await server.close();
  });

  function validate(bytes: Buffer) {
    return api(server.base, 'POST', '/v1/e-invoices/validate', {
      key,
      body: { filename: 'bomb.pdf', content_base64: bytes.toString('base64') },
    });
  }

  /** The answer, the time it took and the process's peak RSS growth while it ran (the pool's workers are threads of this process). */
  async function measured(bytes: Buffer) {
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const started = performance.now();
    try {
      const response = await validate(bytes);
      return {
        response,
        ms: performance.now() - started,
        growth: Math.max(peak, process.memoryUsage().rss) - base,
      };
    } finally {
      clearInterval(sampler);
    }
  }

  function assertRefused(
    run: Awaited<ReturnType<typeof measured>>,
    limit: string,
    max: number,
    message: RegExp,
  ): void {
    const { response, ms, growth } = run;
    assert.equal(response.status, 400, response.text);
    assert.equal(response.json.error.code, 'invalid_request');
    assert.equal(response.json.error.details.field, 'content_base64');
    assert.equal(response.json.error.details.limit, limit, response.text);
    assert.equal(response.json.error.details.max, max);
    assert.match(response.json.error.message, message);
    assert.ok(ms < REFUSED_WITHIN_MS, `refused after ${Math.round(ms)} ms`);
    assert.ok(growth < RSS_GROWTH_LIMIT, `RSS grew by ${Math.round(growth / 1024 / 1024)} MB`);
  }

  it('a 3 MB PDF whose factur-x.xml inflates to 3 GB of zeros is refused at 20 MB, quickly, without the memory', async () => {
    const { zlib, inflated } = zeroBomb(3 * 1024 * 1024);
    assert.ok(inflated > 3_000_000_000, `the bomb holds ${inflated} bytes`);
    const pdf = await sampleWithInvoiceStream(['FlateDecode'], zlib);
    assert.ok(pdf.length > 3_000_000 && pdf.length < 3_500_000, `${pdf.length} bytes`);
    assertRefused(await measured(pdf), 'embedded_xml_bytes', MAX_XML_BYTES, /factur-x\.xml.*20 MB/);
  });

  it('a bomb behind two FlateDecode filters (a 5 KB stream) is refused the same way', async () => {
    const { zlib } = zeroBomb(3 * 1024 * 1024);
    const twice = deflateSync(zlib, { level: 9 });
    const pdf = await sampleWithInvoiceStream(['FlateDecode', 'FlateDecode'], twice);
    assertRefused(await measured(pdf), 'embedded_xml_bytes', MAX_XML_BYTES, /factur-x\.xml.*20 MB/);
  });

  it('three chained filters are refused before anything is inflated', async () => {
    const xml = Buffer.from('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>');
    const thrice = deflateSync(deflateSync(deflateSync(xml)));
    const pdf = await sampleWithInvoiceStream(['FlateDecode', 'FlateDecode', 'FlateDecode'], thrice);
    assertRefused(await measured(pdf), 'pdf_filters', 2, /3 filters.*at most 2/);
  });

  it('an object stream that inflates to gigabytes is refused while the PDF is read', async () => {
    assertRefused(
      await measured(pdfWithObjectStream(zeroBomb(3 * 1024 * 1024).zlib)),
      'pdf_decoded_bytes',
      128 * 1024 * 1024,
      /128 MB/,
    );
  });

  it('the worker goes on: the untouched sample is still read', async () => {
    const response = await api(server.base, 'POST', '/v1/e-invoices/parse', {
      key,
      body: { filename: 'sample.pdf', content_base64: readFileSync(SAMPLE).toString('base64') },
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.json.standard, 'factur-x');
  });
});
