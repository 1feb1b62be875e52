import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { zeroBomb } from '../../test/helpers/pdf-filters.js';
import { inspectMergeSource, mergePdfs } from './merge.js';

/** A one-page PDF whose content stream is 3 GB of zeros behind FlateDecode twice (about 6 KB). */
async function doubleFlateSource(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const twice = deflateSync(zeroBomb(3 * 1024 * 1024).zlib);
  const contents = PDFRawStream.of(doc.context.obj({ Filter: ['FlateDecode', 'FlateDecode'] }), twice);
  page.node.set(PDFName.of('Contents'), doc.context.register(contents));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe('merging a source whose streams inflate to gigabytes', () => {
  it('copies its streams as they are: no inflating, the merge takes what a small file takes', async () => {
    const source = await doubleFlateSource();
    assert.ok(source.length < 10_000, `${source.length} bytes`);
    const pages = await inspectMergeSource(source, 'append[0].pdf_base64');
    assert.equal(pages, 1);
    const main = await PDFDocument.create();
    main.addPage();
    const started = performance.now();
    const merged = await mergePdfs(Buffer.from(await main.save()), {
      prepend: [],
      append: [{ field: 'append[0].pdf_base64', bytes: source, pages, marked: false }],
      markText: 'TEST',
    });
    assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);
    assert.equal((await PDFDocument.load(merged)).getPageCount(), 2);
    assert.ok(merged.length < 20_000, `the bomb is still compressed twice: ${merged.length} bytes`);
  });
});
