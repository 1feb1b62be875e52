import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { cutShort, flipBytes, type Rng, rng } from '../../../test/helpers/random.js';
import { markUntaggedAsArtifacts } from './artifacts.js';
import { checkAccessibility } from './index.js';
import { assertWellFormed } from './report-asserts.js';
import { tinyDoc, tinyPdf } from './test-pdfs.js';

// Fuzz: damaged files load and are reported on, or do not load; they never make the check throw

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 51);
const RUNS = Number(process.env.QUIRE_ACCESSIBILITY_FUZZ_RUNS ?? 300);

/** Content-stream syntax that trips tokenizers, and operators the check reads. */
const VOCABULARY = [
  '/P',
  '/Artifact',
  '<<',
  '>>',
  '/MCID',
  '0',
  '3',
  '-1',
  '1e9',
  'BDC',
  'BMC',
  'EMC',
  '[',
  ']',
  '(',
  ')',
  '\\',
  '<',
  '>',
  '{',
  '}',
  '%',
  '\n',
  'BI',
  'ID',
  'EI',
  '/Fm0',
  'Do',
  're',
  'f',
  'Tj',
  'TJ',
  'q',
  'Q',
  '/MC0',
  '#',
];

function randomContent(r: Rng): string {
  const tokens = Array.from({ length: r.int(60) }, () =>
    r.int(8) === 0 ? String.fromCharCode(r.int(256)) : r.pick(VOCABULARY),
  );
  return tokens.join(r.pick([' ', '', '\n']));
}

/** The seed's bytes damaged as a file would be: bytes set at random, cut short, or content-stream junk spliced in. */
function mutated(r: Rng, base: Buffer): Buffer {
  switch (r.int(3)) {
    case 0:
      return flipBytes(r, base, 24);
    case 1:
      return cutShort(r, base);
    default: {
      const at = r.int(base.length);
      return Buffer.concat([
        base.subarray(0, at),
        Buffer.from(randomContent(r), 'latin1'),
        base.subarray(at),
      ]);
    }
  }
}

describe('fuzz: checkAccessibility over damaged tagged PDFs', { timeout: 120_000 }, () => {
  it(`${RUNS} mutated files (seed ${SEED}): each fails to load or gets a well-formed report`, async () => {
    const seedPdf = Buffer.from(
      await tinyPdf({ font: 'standard', extraContent: '/Artifact BMC 0 0 5 5 re f EMC (x) Tj' }),
    );
    const r = rng(SEED);
    let reported = 0;
    for (let run = 0; run < RUNS; run++) {
      const bytes = mutated(r, seedPdf);
      let doc: PDFDocument;
      try {
        doc = await PDFDocument.load(bytes, { updateMetadata: false });
      } catch {
        continue;
      }
      assertWellFormed(checkAccessibility(doc));
      reported++;
    }
    assert.ok(reported > RUNS / 2, `most damaged files still load (${reported} of ${RUNS})`);
  });

  it(`${RUNS} random content streams (seed ${SEED}): a well-formed report, before and after marking artifacts`, async () => {
    const doc = await tinyDoc({ font: 'standard' });
    const page = doc.getPages()[0];
    assert.ok(page);
    const r = rng(SEED + 1);
    for (let run = 0; run < RUNS; run++) {
      page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(randomContent(r))));
      assertWellFormed(checkAccessibility(doc));
      // Marking never throws on junk, and what it marks is no longer counted outside marked content.
      const before = checkAccessibility(doc).checks.find((c) => c.id === 'content_tagged');
      markUntaggedAsArtifacts(doc);
      const after = checkAccessibility(doc).checks.find((c) => c.id === 'content_tagged');
      assertWellFormed(checkAccessibility(doc));
      assert.ok((after?.count ?? 0) <= (before?.count ?? 0), `run ${run}: marking added failures`);
    }
  });
});
