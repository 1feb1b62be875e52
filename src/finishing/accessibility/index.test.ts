import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFName, PDFNumber, StandardFonts } from '@cantoo/pdf-lib';
import { type AccessibilityReport, accessibilityHeader, checkAccessibility } from './index.js';
import { assertFails, assertPasses, assertWellFormed, checkOf } from './report-asserts.js';
import { tinyDoc } from './test-pdfs.js';

describe('checkAccessibility: the report', () => {
  it('passes every check on a well-made tagged PDF', async () => {
    const report = checkAccessibility(await tinyDoc());
    assertWellFormed(report);
    for (const check of report.checks) assertPasses(check);
    assert.equal(report.tagged, true);
    assert.equal(accessibilityHeader(report), 'tagged; ua1=pass');
  });

  it('accessibilityHeader: says tagged or not, and the failures when it fails', () => {
    const report = (tagged: boolean, failures: number): AccessibilityReport => ({
      tagged,
      ua1: failures === 0 ? 'pass' : 'fail',
      failures,
      checks: [],
    });
    assert.equal(accessibilityHeader(report(true, 0)), 'tagged; ua1=pass');
    assert.equal(accessibilityHeader(report(true, 3)), 'tagged; ua1=fail(3)');
    assert.equal(accessibilityHeader(report(false, 7)), 'untagged; ua1=fail(7)');
  });

  it('content_tagged and fonts_embedded: text pdf-lib draws on a loaded page (unsaved) is neither tagged nor embedded', async () => {
    // What a finishing step that draws with pdf-lib (a stamp) adds unless it marks it an /Artifact.
    const doc = await tinyDoc();
    const helvetica = await doc.embedFont(StandardFonts.Helvetica);
    doc.getPages()[0]?.drawText('DRAFT', { x: 10, y: 10, size: 20, font: helvetica });
    await doc.flush(); // pdf-lib writes a font's dictionary on save or flush
    const report = checkAccessibility(doc);
    assertFails(checkOf(report, 'content_tagged'), 1, /outside/);
    assertFails(checkOf(report, 'fonts_embedded'), 1, /Helvetica: not embedded/);
  });

  it('a damaged object fails the check that reads it, and only that one', async () => {
    const doc = await tinyDoc();
    const page = doc.getPages()[0];
    assert.ok(page);
    page.node.set(PDFName.of('Contents'), PDFNumber.of(7));
    doc.catalog.set(PDFName.of('Lang'), PDFNumber.of(1));
    const report = checkAccessibility(doc);
    assertWellFormed(report);
    assertFails(checkOf(report, 'content_tagged'), 1, /could not be checked/);
    assertFails(checkOf(report, 'language'), 1);
    for (const id of ['structure_tree', 'figure_alt', 'table_headers', 'heading_levels', 'fonts_embedded'])
      assertPasses(checkOf(report, id));
  });
});
