import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { quireVersion } from '../shared/version.js';
import { applyPdfMetadata } from './pdf-metadata.js';

/** A one-page PDF shaped as Chromium writes it: one classic xref table, Info and a catalog with a nested dictionary. */
function chromiumShapedPdf(title: string): Buffer {
  const objects = [
    `<</Title (${title})\n/Creator (HeadlessChrome)\n/Producer (Skia/PDF m156)\n/CreationDate (D:20261123120000+00'00')\n/ModDate (D:20261123120000+00'00')>>`,
    '<</Type /Catalog\n/Pages 3 0 R\n/ViewerPreferences <</Type /ViewerPreferences\n/DisplayDocTitle true>>>>',
    '<</Type /Pages\n/Count 1\n/Kids [4 0 R]>>',
    '<</Type /Page\n/Parent 3 0 R\n/MediaBox [0 0 595 842]>>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<</Size ${objects.length + 1}\n/Root 2 0 R\n/Info 1 0 R>>\nstartxref\n${xref}\n%%EOF`;
  return Buffer.from(body, 'latin1');
}

describe('PDF metadata', () => {
  it('appends Info and /Lang as an incremental update, keeping every original byte', async () => {
    const original = chromiumShapedPdf('Rechnung 42');
    const out = await applyPdfMetadata(original, { fallbackTitle: 'unused', html: '<html lang="de-CH">' });
    assert.deepEqual(out.subarray(0, original.length), original);
    const doc = await PDFDocument.load(out, { updateMetadata: false });
    assert.equal(doc.getTitle(), 'Rechnung 42');
    assert.equal(doc.getCreator(), `Quire ${quireVersion()}`);
    assert.equal(doc.getProducer(), `Quire ${quireVersion()} (Chromium)`);
    assert.equal(doc.getLanguage(), 'de-CH');
    assert.equal(doc.getPageCount(), 1);
  });

  it('replaces about:blank by the fallback title, non-ASCII included', async () => {
    const out = await applyPdfMetadata(chromiumShapedPdf('about:blank'), {
      fallbackTitle: 'Größe (1) \\ ü',
      html: '<p>no language</p>',
    });
    const doc = await PDFDocument.load(out, { updateMetadata: false });
    assert.equal(doc.getTitle(), 'Größe (1) \\ ü');
    assert.equal(doc.getLanguage(), undefined);
  });

  it('rewrites files of another shape (xref streams) through pdf-lib with the same result', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    doc.setTitle('about:blank');
    const streamed = Buffer.from(await doc.save({ useObjectStreams: true }));
    const out = await applyPdfMetadata(streamed, { fallbackTitle: 'invoice-7', html: '<html lang="fr">' });
    const read = await PDFDocument.load(out, { updateMetadata: false });
    assert.equal(read.getTitle(), 'invoice-7');
    assert.equal(read.getProducer(), `Quire ${quireVersion()} (Chromium)`);
    assert.equal(read.getLanguage(), 'fr');
  });
});
