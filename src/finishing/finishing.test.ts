import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { isAppError } from '../shared/errors.js';
import { finishPdf } from './index.js';
import { withPdfUaExtension } from './pdfa.js';
import { checkPdfA } from './pdfa-check.js';
import { checkLanguage, mergeFinishing, planFinishing } from './plan.js';
import { encryptArguments } from './protect.js';
import { stampedPages } from './stamp.js';

/** A one-page PDF drawn with a standard font, which is never embedded (what PDF/A cannot accept). */
async function standardFontPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText('Hello', { x: 50, y: 700, font, size: 12 });
  return Buffer.from(await doc.save());
}

function refusal(fn: () => unknown): { field: unknown; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(isAppError(err) && err.code === 'invalid_request', String(err));
    return { field: err.details?.field, message: err.message };
  }
  assert.fail('expected a refusal');
}

describe('finishing plan', () => {
  it('chooses the steps once and tags every PDF unless the request says tagged: false', () => {
    assert.equal(planFinishing({}).tagged, true);
    assert.equal(planFinishing({ tagged: false }).tagged, false);
    assert.equal(planFinishing({ outline: true }).tagged, true);
    assert.equal(planFinishing({ pdf_ua: true }).tagged, true);
    assert.equal(planFinishing({ tagged: true }).outline, false);
    const attachment = { filename: 'a.txt', content_base64: 'aGk=', mime_type: 'text/plain' };
    const plan = planFinishing({ pdf_a: '3b', attachments: [attachment] });
    assert.equal(Buffer.from(plan.attachments?.[0]?.bytes ?? []).toString(), 'hi');
    assert.equal(plan.attachments?.[0]?.relationship, 'Unspecified');
  });

  it('refuses each incompatible combination naming the field', () => {
    const csv = { filename: 'a.csv', content_base64: 'YQ==', mime_type: 'text/csv' };
    assert.equal(
      refusal(() => planFinishing({ pdf_a: '2b', protect: { owner_password: 'x' } })).field,
      'protect',
    );
    assert.match(refusal(() => planFinishing({ pdf_a: '2b', attachments: [csv] })).message, /"3b"/);
    assert.equal(refusal(() => planFinishing({ pdf_ua: true, tagged: false })).field, 'tagged');
    assert.equal(
      refusal(() => planFinishing({ sign: { certificate_id: 'c' }, protect: { owner_password: 'x' } })).field,
      'sign',
    );
    assert.equal(refusal(() => planFinishing({ outline: true, tagged: false })).field, 'outline');
    const contribution = { attachments: [], xmpExtensions: [], metadata: {}, pdfA: '3b' as const };
    assert.equal(refusal(() => planFinishing({ pdf_a: '2u' }, contribution)).field, 'pdf_a');
    assert.equal(
      refusal(() => planFinishing({ protect: { owner_password: 'x' } }, contribution)).field,
      'protect',
    );
    assert.equal(refusal(() => checkLanguage(planFinishing({ pdf_ua: true }), null)).field, 'pdf_ua');
    checkLanguage(planFinishing({ pdf_ua: true }), 'en');
    checkLanguage(planFinishing({ pdf_ua: true, pdf_metadata: { language: 'de' } }), null);
  });

  it('merges a template under the request, pdf_metadata key by key', () => {
    assert.deepEqual(
      mergeFinishing(
        { pdf_a: '3b', pdf_metadata: { author: 'T', title: 'T' }, stamp: { text: 'A' } },
        { pdf_a: '2u', pdf_metadata: { title: 'R' } },
      ),
      { pdf_a: '2u', pdf_metadata: { author: 'T', title: 'R' }, stamp: { text: 'A' } },
    );
  });
});

describe('finishing steps', () => {
  it('protect: qpdf arguments, one a line, with the permissions and AES-256', () => {
    const args = encryptArguments(
      { owner_password: 'o', permissions: { print: 'low', copy: false } },
      'in.pdf',
      'out.pdf',
    );
    assert.deepEqual(args.slice(0, 5), ['in.pdf', '--encrypt', '', 'o', '256']);
    assert.ok(
      args.includes('--print=low') && args.includes('--extract=n') && args.includes('--modify-other=y'),
    );
    assert.deepEqual(args.slice(-2), ['--', 'out.pdf']);
  });

  it('stamp: all, first or the rest of the pages', () => {
    assert.deepEqual(stampedPages(3, undefined), [0, 1, 2]);
    assert.deepEqual(stampedPages(3, 'first'), [0]);
    assert.deepEqual(stampedPages(3, 'rest'), [1, 2]);
    assert.deepEqual(stampedPages(1, 'rest'), []);
  });

  it('pdf_ua in PDF/A: the pdfuaid schema joins the one pdfaExtension block', () => {
    const fx =
      '<rdf:Description rdf:about=""><pdfaExtension:schemas><rdf:Bag><rdf:li>fx</rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>';
    const out = withPdfUaExtension([fx]);
    assert.equal(out.length, 2);
    assert.equal(out.join('').match(/<pdfaExtension:schemas>/g)?.length, 1);
    assert.match(out[0] ?? '', /pdfuaid<\/pdfaSchema:prefix>.*<rdf:li>fx/);
    assert.equal(
      withPdfUaExtension([])
        .join('')
        .match(/<pdfaExtension:schemas>/g)?.length,
      1,
    );
  });

  it('the PDF/A checker names an unembedded font, and the pipeline refuses to send such a file', async () => {
    const pdf = await standardFontPdf();
    const problems = checkPdfA(await PDFDocument.load(pdf), '2b');
    assert.ok(problems.includes('font Helvetica is not embedded'), problems.join('; '));
    assert.ok(problems.some((p) => p.includes('no XMP')));
    await assert.rejects(
      finishPdf(pdf, planFinishing({ pdf_a: '2b' }), { createdAt: new Date() }),
      (err: unknown) =>
        isAppError(err) &&
        err.code === 'render_failed' &&
        /PDF\/A-2b.*font Helvetica is not embedded/.test(err.message),
    );
  });

  it('pdf_metadata without PDF/A: Info written, Unicode and markup-significant characters kept', async () => {
    const out = await finishPdf(
      await standardFontPdf(),
      planFinishing({ pdf_metadata: { title: 'T – ü', author: 'A & B', keywords: ['k'] } }),
      { createdAt: new Date() },
    );
    const doc = await PDFDocument.load(out);
    assert.equal(doc.getTitle(), 'T – ü');
    assert.equal(doc.getAuthor(), 'A & B');
  });
});

describe('the finishing step contract', () => {
  it("every request field belongs to one step or to the structure (tagged, outline), and every step's fields are in the API", async () => {
    const { STEPS } = await import('./steps/index.js');
    const { FinishingFields } = await import('./schema.js');
    const owned = STEPS.flatMap((step) => step.fields.map(String));
    assert.equal(new Set(owned).size, owned.length, 'no field belongs to two steps');
    assert.deepEqual(
      [...owned, 'tagged', 'outline'].sort(),
      Object.keys(FinishingFields).sort(),
      'schema.ts lists exactly the steps’ fields (in the API’s order)',
    );
  });

  it('a plan that asks nothing of any step finishes nothing; asking any one step changes the file', async () => {
    const { finishesNothing } = await import('./plan.js');
    assert.equal(finishesNothing(planFinishing({ tagged: true, outline: true })), true);
    for (const options of [
      { pdf_a: '2b' as const },
      { pdf_ua: true },
      { pdf_metadata: { title: 'T' } },
      { stamp: { text: 'PAID' } },
      { protect: { owner_password: 'x' } },
      { sign: { certificate_id: 'c' } },
      { append: [{ document_id: 'd' }] },
    ])
      assert.equal(finishesNothing(planFinishing(options)), false, JSON.stringify(options));
  });
});
