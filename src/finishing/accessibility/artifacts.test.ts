import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { markUntaggedAsArtifacts } from './artifacts.js';
import { checkAccessibility } from './index.js';
import { assertFails, assertPasses, checkOf } from './report-asserts.js';
import { form, tinyDoc } from './test-pdfs.js';

/** Marks, saves and reloads: what a reader of the written file gets. */
async function marked(changes: Parameters<typeof tinyDoc>[0]): Promise<{ doc: PDFDocument; count: number }> {
  const doc = await tinyDoc(changes);
  const count = markUntaggedAsArtifacts(doc);
  const saved = await doc.save({ useObjectStreams: false });
  return { doc: await PDFDocument.load(saved, { updateMetadata: false }), count };
}

describe('markUntaggedAsArtifacts', () => {
  it('wraps each untagged path, text and image as an artifact, and then content_tagged passes', async () => {
    const extraContent = [
      'q 1 0 0 rg 0 0 5 5 re 0 0 9 9 re f Q',
      '0 0 m 10 10 l S',
      'BT /F1 9 Tf 5 5 Td (x) Tj [(y) 3 (z)] TJ ET',
      'q 0 0 400 600 re W n Q',
      'BI /W 2 /H 1 /BPC 8 /CS /G ID ab\nEI',
    ].join('\n');
    const before = await tinyDoc({ extraContent });
    assertFails(checkOf(checkAccessibility(before), 'content_tagged'), 1, /outside/);
    const { doc, count } = await marked({ extraContent });
    // Two paths, two text-showing operators, one inline image; the clip paints nothing.
    assert.equal(count, 5);
    assertPasses(checkOf(checkAccessibility(doc), 'content_tagged'));
    // The tagged content is untouched: every other check holds as it did.
    const failed = checkAccessibility(doc).checks.filter((c) => !c.passed);
    assert.deepEqual(
      failed.map((c) => c.id),
      checkAccessibility(before)
        .checks.filter((c) => !c.passed && c.id !== 'content_tagged')
        .map((c) => c.id),
    );
  });

  it('leaves tagged content and artifacts alone, and a tagged file as it was', async () => {
    const extraContent = '/Artifact BMC 0 0 5 5 re f EMC /P <</MCID 0>> BDC 1 1 2 2 re f EMC';
    const { count } = await marked({ extraContent });
    assert.equal(count, 0);
  });

  it('marks inside a form XObject painted outside marked content, once however often it is painted', async () => {
    const { doc, count } = await marked({ extraContent: '/Fm0 Do /Fm0 Do', tweak: form('0 0 5 5 re f') });
    assert.equal(count, 1);
    assertPasses(checkOf(checkAccessibility(doc), 'content_tagged'));
  });

  it('is idempotent: a second pass finds nothing', async () => {
    const doc = await tinyDoc({ extraContent: '0 0 5 5 re f' });
    assert.equal(markUntaggedAsArtifacts(doc), 1);
    assert.equal(markUntaggedAsArtifacts(doc), 0);
  });
});
