import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  type PDFPage,
  PDFRawStream,
  PDFStream,
  PDFString,
} from '@cantoo/pdf-lib';
import { zeroBomb } from '../../../test/helpers/pdf-filters.js';
import { MAX_CONTENT_BYTES } from './content-tagged.js';
import { checkAccessibility } from './index.js';
import { assertFails, assertOnlyFails, assertPasses, assertWellFormed } from './report-asserts.js';
import { addXObject, form, outcome, tinyDoc } from './test-pdfs.js';

describe('checkAccessibility: content_tagged', () => {
  it('content_tagged: counts each run of painting outside marked content, and takes artifacts', async () => {
    assertFails(await outcome('content_tagged', { extraContent: '0 0 5 5 re f 0 0 6 6 re S' }), 1, /outside/);
    // A plain /Span sequence (no MCID) tags nothing, and each marked-content boundary starts a new run.
    const runs = 'q 0 0 5 5 re f Q /Span BMC 1 1 2 2 re f EMC 3 3 1 1 re S';
    assertFails(await outcome('content_tagged', { extraContent: runs }), 3);
    const artifacts =
      '/Artifact BMC 0 0 5 5 re f EMC /Artifact <</Type /Pagination>> BDC /Span BMC 1 1 2 2 re f EMC EMC';
    assertPasses(await outcome('content_tagged', { extraContent: artifacts }));
    // Clipping paths and path construction paint nothing.
    assertPasses(await outcome('content_tagged', { extraContent: 'q 0 0 400 600 re W n Q' }));
  });

  it('content_tagged: marked content the structure tree does not reach is not tagged', async () => {
    const orphan = '/P <</MCID 42>> BDC 0 0 5 5 re f EMC';
    assertFails(await outcome('content_tagged', { extraContent: orphan }), 1, /does not reach/);
    // Without a tree, none of the page's 8 MCID sequences is reached.
    assertFails(await outcome('content_tagged', { structTree: false }), 8, /does not reach/);
  });

  it('content_tagged: reads named property lists, strings and inline images as data, not operators', async () => {
    const properties = (doc: PDFDocument, page: PDFPage) => {
      const resources = page.node.Resources();
      resources?.set(PDFName.of('Properties'), doc.context.obj({ MC0: { MCID: 0 }, MC9: { MCID: 99 } }));
    };
    const named = '/P /MC0 BDC 0 0 5 5 re f EMC';
    assertPasses(await outcome('content_tagged', { extraContent: named, tweak: properties }));
    const unreached = '/P /MC9 BDC 0 0 5 5 re f EMC';
    assertFails(await outcome('content_tagged', { extraContent: unreached, tweak: properties }), 1);
    const strings =
      '/P <</MCID 0 /Alt (EMC) >> BDC (EMC \\) BDC) Tj [(a) -20 (EMC)] TJ <454D43> Tj % EMC\n EMC';
    assertPasses(await outcome('content_tagged', { extraContent: strings }));
    const inline = 'BI /W 2 /H 1 /BPC 8 /CS /G ID EMC\nEI';
    assertPasses(await outcome('content_tagged', { extraContent: `/P <</MCID 0>> BDC ${inline} EMC` }));
    assertFails(await outcome('content_tagged', { extraContent: inline }), 1);
  });

  it('content_tagged: follows form XObjects painted outside marked content', async () => {
    assertFails(await outcome('content_tagged', { extraContent: '/Fm0 Do', tweak: form('0 0 5 5 re f') }), 1);
    const covered = '/Artifact BMC /Fm0 Do EMC /P <</MCID 0>> BDC /Fm0 Do EMC';
    assertPasses(await outcome('content_tagged', { extraContent: covered, tweak: form('0 0 5 5 re f') }));
    const artifactInside = form('/Artifact BMC 0 0 5 5 re f EMC');
    assertPasses(await outcome('content_tagged', { extraContent: '/Fm0 Do', tweak: artifactInside }));
    const image = (doc: PDFDocument, page: PDFPage) => {
      addXObject(doc, page, 'x', {
        Subtype: 'Image',
        Width: 1,
        Height: 1,
        BitsPerComponent: 8,
        ColorSpace: 'DeviceGray',
      });
    };
    assertFails(await outcome('content_tagged', { extraContent: '/Fm0 Do', tweak: image }), 1);
  });

  it("content_tagged: a form XObject's own MCIDs are reached through an MCR naming it in /Stm", async () => {
    const formMcid = '/P <</MCID 0>> BDC 0 0 5 5 re f EMC';
    assertFails(
      await outcome('content_tagged', { extraContent: '/Fm0 Do', tweak: form(formMcid) }),
      1,
      /does not reach/,
    );
    const withMcr = (doc: PDFDocument, page: PDFPage) => {
      const formRef = addXObject(doc, page, formMcid);
      const root = doc.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
      const kids = root.lookup(PDFName.of('K'), PDFDict).lookup(PDFName.of('K'), PDFArray);
      const mcr = { Type: 'MCR', Stm: formRef, MCID: 0 };
      const figure = doc.context.obj({ Type: 'StructElem', S: 'Figure', Alt: PDFString.of('x'), K: mcr });
      kids.push(doc.context.register(figure));
    };
    assertPasses(await outcome('content_tagged', { extraContent: '/Fm0 Do', tweak: withMcr }));
    // A form that paints itself is followed once.
    const recursive = (doc: PDFDocument, page: PDFPage) => {
      const ref = addXObject(doc, page, '/Fm0 Do 0 0 1 1 re f');
      doc.context
        .lookup(ref, PDFStream)
        .dict.set(PDFName.of('Resources'), doc.context.obj({ XObject: { Fm0: ref } }));
    };
    assertFails(await outcome('content_tagged', { extraContent: '/Fm0 Do', tweak: recursive }), 1);
  });

  it('content_tagged: counts an EMC without a sequence and a sequence never ended', async () => {
    assertFails(await outcome('content_tagged', { extraContent: 'EMC' }), 1, /unbalanced/);
    assertFails(await outcome('content_tagged', { extraContent: '/P <</MCID 0>> BDC' }), 1, /unbalanced/);
  });

  it('stray delimiters and unclosed strings, arrays and dictionaries end the scan instead of hanging it', async () => {
    // pdf-lib's own parseContentStream never returns on the first of these.
    for (const junk of [') } ] >> {', '[ ) ] TJ', '<< /MCID 1', '(unclosed', '<abc', 'BI /W 1 ID'])
      assertWellFormed(checkAccessibility(await tinyDoc({ extraContent: junk })));
  });

  it('content_tagged: a page content stream past the decoding cap fails this check, naming it, and no other', async () => {
    const doc = await tinyDoc();
    const page = doc.getPages()[0];
    assert.ok(page);
    const { zlib, inflated } = zeroBomb(80 * 1024);
    assert.ok(inflated > MAX_CONTENT_BYTES, `the bomb inflates to ${inflated} bytes`);
    const bomb = PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: zlib.length }), zlib);
    page.node.set(PDFName.of('Contents'), doc.context.register(bomb));
    const limit =
      /^could not be checked: a content stream of page 1 was not decoded: the stream decodes to more than 67108864 bytes$/;
    assertOnlyFails(checkAccessibility(doc), 'content_tagged', 1, limit);
  });

  it('content_tagged: a form XObject past the filter limit fails this check, naming it, and no other', async () => {
    const chained = (doc: PDFDocument, page: PDFPage) => {
      const filters = ['FlateDecode', 'FlateDecode', 'FlateDecode'];
      addXObject(doc, page, '0 0 5 5 re f', { Subtype: 'Form', BBox: [0, 0, 10, 10], Filter: filters });
    };
    const report = checkAccessibility(await tinyDoc({ extraContent: '/Fm0 Do', tweak: chained }));
    const limit =
      /^could not be checked: the form XObject \d+ 0 R painted on page 1 was not decoded: the stream chains 3 filters, more than 2$/;
    assertOnlyFails(report, 'content_tagged', 1, limit);
  });
});
