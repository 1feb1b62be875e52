import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

/** `n` A4 pages, each saying `label page i`. */
export const pagesHtml = (label: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p style="${i > 0 ? 'break-before:page' : ''}">${label} page ${i + 1}</p>`,
  ).join('');

/**
 * A PDF with an AcroForm as an authority might send one (made with pdf-lib, not by Quire): a text field, a
 * check box, a dropdown and a radio group on an A4 page.
 */
export async function formPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595.28, 841.89]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Application form', { x: 50, y: 800, size: 14, font });
  const form = doc.getForm();
  form.createTextField('applicant.name').addToPage(page, { x: 50, y: 700, width: 250, height: 22 });
  form.createCheckBox('agree').addToPage(page, { x: 50, y: 650, width: 15, height: 15 });
  const country = form.createDropdown('country');
  country.addOptions(['Austria', 'Germany', 'Switzerland']);
  country.addToPage(page, { x: 50, y: 600, width: 150, height: 22 });
  const size = form.createRadioGroup('size');
  size.addOptionToPage('small', page, { x: 50, y: 550, width: 15, height: 15 });
  size.addOptionToPage('large', page, { x: 80, y: 550, width: 15, height: 15 });
  return Buffer.from(await doc.save());
}

/** The error object of an error answer. */
export function errorOf(r: { json: unknown }) {
  return (r.json as { error: { code: string; message: string; details?: { field?: string } } }).error;
}
