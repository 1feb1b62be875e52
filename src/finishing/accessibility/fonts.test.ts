import { describe, it } from 'node:test';
import { PDFDict, PDFName } from '@cantoo/pdf-lib';
import { checkAccessibility } from './index.js';
import { assertFails, assertPasses, checkOf } from './report-asserts.js';
import { outcome, tinyDoc } from './test-pdfs.js';

describe('checkAccessibility: fonts_embedded', () => {
  it('fonts_embedded: fails on an unembedded standard font and on a font without a Unicode map', async () => {
    assertFails(await outcome('fonts_embedded', { font: 'standard' }), 1, /Helvetica: not embedded$/);
    assertPasses(await outcome('fonts_embedded', { font: 'embedded' }));
    const doc = await tinyDoc();
    for (const [, object] of doc.context.enumerateIndirectObjects())
      if (object instanceof PDFDict && object.get(PDFName.of('Subtype')) === PDFName.of('Type0'))
        object.delete(PDFName.of('ToUnicode'));
    assertFails(checkOf(checkAccessibility(doc), 'fonts_embedded'), 1, /no ToUnicode map/);
  });
});
