import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFArray, PDFDict, PDFName, PDFRef } from '@cantoo/pdf-lib';
import { checkAccessibility } from './index.js';
import { assertFails, assertPasses, assertWellFormed, checkOf } from './report-asserts.js';
import { type Node, outcome, table, tinyDoc } from './test-pdfs.js';

describe('checkAccessibility: the structure tree checks', () => {
  it('figure_alt: fails on a <Figure> (or a type role-mapped to it) without /Alt or /ActualText', async () => {
    const figure = (node: Partial<Node>) => ({ nodes: [{ type: 'H1' }, { type: 'Figure', ...node }] });
    assertFails(await outcome('figure_alt', figure({})), 1, /1 of 1/);
    assertFails(await outcome('figure_alt', figure({ alt: '  ' })), 1);
    assertPasses(await outcome('figure_alt', figure({ alt: 'A chart of sales' })));
    assertPasses(await outcome('figure_alt', figure({ actualText: '∑' })));
    const photo = { nodes: [{ type: 'Photo' }, { type: 'Photo', alt: 'x' }], roleMap: { Photo: 'Figure' } };
    assertFails(await outcome('figure_alt', photo), 1);
  });

  it('table_headers: fails on a <Table> without a <TH> of its own', async () => {
    assertFails(await outcome('table_headers', { nodes: [table(false)] }), 1, /1 of 1/);
    assertPasses(await outcome('table_headers', { nodes: [table(true)] }));
    // The inner table's TH does not give the outer one a header, nor the outer's the inner one.
    const nested = (outerHeader: boolean, innerHeader: boolean): Node => ({
      type: 'Table',
      kids: [{ type: 'TR', kids: [{ type: outerHeader ? 'TH' : 'TD', kids: [table(innerHeader)] }] }],
    });
    assertFails(await outcome('table_headers', { nodes: [nested(false, true)] }), 1, /1 of 2/);
    assertFails(await outcome('table_headers', { nodes: [nested(true, false)] }), 1, /1 of 2/);
  });

  it('heading_levels: counts each skipped level, from H1 at the start', async () => {
    const headings = (...types: string[]) => ({ nodes: types.map((type) => ({ type })) });
    assertFails(await outcome('heading_levels', headings('H1', 'H3')), 1, /H1 → H3/);
    assertFails(await outcome('heading_levels', headings('H2', 'H3')), 1, /first heading is H2/);
    assertFails(await outcome('heading_levels', headings('H1', 'H3', 'H2', 'H6')), 2);
    assertPasses(await outcome('heading_levels', headings('H1', 'H2', 'H3', 'H1', 'H2', 'H2', 'P')));
    // Headings inside other elements count in document order; role-mapped types count as what they map to.
    const nested = {
      nodes: [{ type: 'H1' }, { type: 'Sect', kids: [{ type: 'Sub' }] }],
      roleMap: { Sub: 'H3' },
    };
    assertFails(await outcome('heading_levels', nested), 1, /H1 → H3/);
  });

  it('a cycle in the structure tree ends the walk', async () => {
    const doc = await tinyDoc();
    const root = doc.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
    const documentRef = root.get(PDFName.of('K'));
    assert.ok(documentRef instanceof PDFRef);
    const documentElement = doc.context.lookup(documentRef, PDFDict);
    const firstKid = documentElement.lookup(PDFName.of('K'), PDFArray).lookup(0, PDFDict);
    firstKid.set(PDFName.of('K'), doc.context.obj([documentRef, 0]));
    const report = checkAccessibility(doc);
    assertWellFormed(report);
    assertPasses(checkOf(report, 'heading_levels'));
  });
});
