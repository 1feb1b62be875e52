import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../shared/errors.js';
import { markedPages, planMerge, type ResolvedMerge } from './merge.js';
import { planFinishing } from './plan.js';

const source = (pages: number, marked: boolean) => ({ field: 'f', bytes: Buffer.alloc(0), pages, marked });

describe('merge plan', () => {
  it('names each source by its field and decodes files', () => {
    const plan = planMerge([{ document_id: 'a' }], [{ pdf_base64: 'JVBERi0=' }, { document_id: 'b' }]);
    assert.ok(plan);
    assert.deepEqual(plan.prepend, [{ field: 'prepend[0].document_id', documentId: 'a' }]);
    assert.equal(plan.append[0]?.field, 'append[0].pdf_base64');
    assert.equal(String((plan.append[0] as { bytes: Buffer }).bytes), '%PDF-');
    assert.equal(plan.append[1]?.field, 'append[1].document_id');
    assert.equal(planMerge(undefined, []), null);
  });

  it('refuses text that is not base64, naming the source', () => {
    try {
      planMerge(undefined, [{ document_id: 'a' }, { pdf_base64: 'not base64!' }]);
      assert.fail('expected a refusal');
    } catch (err) {
      assert.ok(isAppError(err) && err.code === 'invalid_request');
      assert.equal(err.details?.field, 'append[1].pdf_base64');
    }
  });

  it('refuses pdf_ua with merging, and an e-invoice that merges is not PDF/UA by default', () => {
    assert.throws(() => planFinishing({ pdf_ua: true, append: [{ document_id: 'a' }] }), /not tagged/);
    const contribution = {
      attachments: [],
      xmpExtensions: [],
      metadata: {},
      pdfA: '3b' as const,
      accessible: true,
    };
    assert.equal(planFinishing({}, contribution).pdf_ua !== null, true);
    assert.equal(planFinishing({ append: [{ document_id: 'a' }] }, contribution).pdf_ua, null);
  });

  it('marks the pages of marked sources wherever they land', () => {
    const merge: ResolvedMerge = {
      prepend: [source(2, true), source(1, false)],
      append: [source(1, false), source(2, true)],
      markText: 'TEST',
    };
    // 3 prepended, 4 rendered (3–6), 3 appended (7–9).
    assert.deepEqual(markedPages(merge, 10), [0, 1, 8, 9]);
    assert.deepEqual(markedPages({ prepend: [], append: [], markText: 'T' }, 3), []);
  });
});
