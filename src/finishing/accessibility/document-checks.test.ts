import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { zeroBomb } from '../../../test/helpers/pdf-filters.js';
import { MAX_XMP_BYTES } from './document-checks.js';
import { accessibilityHeader, checkAccessibility } from './index.js';
import { assertFails, assertOnlyFails, assertPasses, checkOf } from './report-asserts.js';
import { outcome, tinyDoc } from './test-pdfs.js';

describe('checkAccessibility: the document checks', () => {
  it('structure_tree: fails without /MarkInfo /Marked true, without a StructTreeRoot, or with /Suspects true', async () => {
    assertFails(await outcome('structure_tree', { marked: false }), 1, /MarkInfo/);
    assertFails(await outcome('structure_tree', { suspects: true }), 1, /Suspects/);
    const untagged = checkAccessibility(await tinyDoc({ marked: false, structTree: false }));
    assertFails(checkOf(untagged, 'structure_tree'), 2);
    assert.equal(untagged.tagged, false);
    assert.match(accessibilityHeader(untagged), /^untagged; ua1=fail\(\d+\)$/);
    assertPasses(await outcome('structure_tree', {}));
  });

  it('language: fails without a non-empty catalog /Lang', async () => {
    assertFails(await outcome('language', { lang: undefined }), 1);
    assertFails(await outcome('language', { lang: ' ' }), 1);
    assertPasses(await outcome('language', { lang: 'de-CH' }));
  });

  it('title_displayed: needs a title (Info or XMP dc:title) and /DisplayDocTitle true', async () => {
    assertFails(
      await outcome('title_displayed', { displayDocTitle: undefined }),
      1,
      /no \/ViewerPreferences/,
    );
    assertFails(await outcome('title_displayed', { displayDocTitle: false }), 1, /not true/);
    assertFails(await outcome('title_displayed', { title: undefined }), 1, /no title/);
    assertFails(await outcome('title_displayed', { title: undefined, displayDocTitle: undefined }), 2);
    const infoOnly = await outcome('title_displayed', {});
    assertPasses(infoOnly);
    assert.match(infoOnly.detail ?? '', /Info dictionary only/);
    const xmpOnly = await outcome('title_displayed', { title: undefined, xmpTitle: 'Report' });
    assertPasses(xmpOnly);
    assert.equal(xmpOnly.detail, undefined);
  });

  it('title_displayed: an XMP packet past the decoding cap fails this check, naming it, and no other', async () => {
    const doc = await tinyDoc();
    const { zlib, inflated } = zeroBomb(1);
    assert.ok(inflated > MAX_XMP_BYTES, `the bomb inflates to ${inflated} bytes`);
    const dict = doc.context.obj({
      Type: 'Metadata',
      Subtype: 'XML',
      Filter: 'FlateDecode',
      Length: zlib.length,
    });
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(PDFRawStream.of(dict, zlib)));
    const limit =
      /^could not be checked: the XMP metadata stream was not decoded: the stream decodes to more than 4194304 bytes$/;
    assertOnlyFails(checkAccessibility(doc), 'title_displayed', 1, limit);
  });
});
