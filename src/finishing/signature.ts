import {
  beginText,
  endText,
  moveText,
  PDFArray,
  PDFDict,
  type PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFOperator,
  type PDFRef,
  PDFString,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setFillingRgbColor,
  setFontAndSize,
  setLineWidth,
  setStrokingRgbColor,
  showText,
  stroke,
} from '@cantoo/pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import { lengthToInches } from '../render/index.js';
import { AppError } from '../shared/errors.js';
import { type SigningKey, signatureSizeOf, signDetached } from './cms.js';
import type { SignOption } from './schema.js';
import { embedTextFont } from './stamp.js';

/** The placeholder @signpdf/signpdf looks for and replaces with the real byte ranges. */
const BYTE_RANGE_PLACEHOLDER = '**********';
/** Annotation flag Print (PDF 32000 §12.5.3): PDF/A requires printable annotations. */
const PRINT_FLAG = 4;
/** AcroForm /SigFlags: SignaturesExist | AppendOnly. */
const SIG_FLAGS = 3;
const POINTS_PER_INCH = 72;

type VisibleBox = NonNullable<SignOption['visible']>;

function points(length: string): number {
  return (lengthToInches(length) ?? 0) * POINTS_PER_INCH;
}

/**
 * The widget's rectangle in PDF coordinates. `visible` is measured like the page options, from the page's
 * top-left corner as a reader sees it; PDF pages count from the bottom-left.
 */
function widgetRect(
  doc: PDFDocument,
  visible: VisibleBox | undefined,
): { pageIndex: number; rect: number[] } {
  if (!visible) return { pageIndex: 0, rect: [0, 0, 0, 0] };
  const count = doc.getPageCount();
  if (visible.page > count)
    throw new AppError(
      'invalid_request',
      `"sign.visible.page" is ${visible.page}, but the document has ${count} page(s).`,
      { field: 'sign.visible.page' },
    );
  const page = doc.getPage(visible.page - 1);
  const { height } = page.getSize();
  const [x, y, w, h] = [visible.x, visible.y, visible.width, visible.height].map(points) as [
    number,
    number,
    number,
    number,
  ];
  return { pageIndex: visible.page - 1, rect: [x, height - y - h, x + w, height - y] };
}

/** Text the font can draw: characters outside it become "?" rather than failing the document. */
function drawable(font: PDFFont, text: string): string {
  return [...text].map((c) => (font.getCharacterSet().includes(c.codePointAt(0) ?? 0) ? c : '?')).join('');
}

/** The lines of a visible signature: who signed, when, and the reason and location when given. */
function appearanceLines(sign: SignOption, key: SigningKey, at: Date): string[] {
  return [
    `Digitally signed by ${key.signerName}`,
    `Date: ${at.toISOString().replace('T', ' ').slice(0, 19)} UTC`,
    ...(sign.reason ? [`Reason: ${sign.reason}`] : []),
    ...(sign.location ? [`Location: ${sign.location}`] : []),
  ];
}

/**
 * The widget's normal appearance: a thin frame and the lines of text in the embedded stamp font (PDF/A
 * needs every annotation to have one, and fonts embedded). An invisible signature gets an empty one.
 */
async function appearance(
  doc: PDFDocument,
  sign: SignOption,
  key: SigningKey,
  box: { width: number; height: number; at: Date },
): Promise<PDFRef> {
  const bbox = [0, 0, box.width, box.height];
  if (box.width === 0 || box.height === 0)
    return doc.context.register(doc.context.formXObject([], { BBox: bbox }));
  const font = await embedTextFont(doc);
  const lines = appearanceLines(sign, key, box.at);
  const size = Math.max(4, Math.min(10, (box.height - 4) / (lines.length * 1.25)));
  const operators: PDFOperator[] = [
    pushGraphicsState(),
    setLineWidth(0.75),
    setStrokingRgbColor(0.2, 0.3, 0.6),
    rectangle(0.5, 0.5, box.width - 1, box.height - 1),
    stroke(),
    beginText(),
    setFillingRgbColor(0, 0, 0),
    setFontAndSize('F1', size),
    moveText(4, box.height - 2 - size),
  ];
  for (const [i, line] of lines.entries()) {
    if (i > 0) operators.push(moveText(0, -size * 1.25));
    operators.push(showText(font.encodeText(drawable(font, line))));
  }
  operators.push(endText(), popGraphicsState());
  const stream = doc.context.formXObject(operators, {
    BBox: bbox,
    Resources: { Font: { F1: font.ref } },
  });
  return doc.context.register(stream);
}

/** The signature dictionary: /ByteRange and /Contents are placeholders the byte step fills. */
function signatureDict(doc: PDFDocument, sign: SignOption, key: SigningKey, at: Date): PDFRef {
  const byteRange = PDFArray.withContext(doc.context);
  byteRange.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i++) byteRange.push(PDFName.of(BYTE_RANGE_PLACEHOLDER));
  const dict: Record<string, unknown> = {
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    // @signpdf/signpdf finds /Contents after /ByteRange: the order of these two matters.
    ByteRange: byteRange,
    Contents: PDFHexString.of('0'.repeat(signatureSizeOf(key) * 2)),
    M: PDFString.fromDate(at),
    Name: PDFString.of(key.signerName),
  };
  for (const [name, value] of [
    ['Reason', sign.reason],
    ['Location', sign.location],
    ['ContactInfo', sign.contact],
  ] as const)
    if (value !== undefined) dict[name] = PDFString.of(value);
  return doc.context.register(doc.context.obj(dict as Parameters<typeof doc.context.obj>[0]));
}

/** The form's fields with the widget added, and the flags that say the file is signed. */
function addToForm(doc: PDFDocument, widget: PDFRef): void {
  const catalog = doc.catalog;
  const form = catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict) ?? doc.context.obj({});
  const fields = form.lookupMaybe(PDFName.of('Fields'), PDFArray) ?? PDFArray.withContext(doc.context);
  fields.push(widget);
  form.set(PDFName.of('Fields'), fields);
  form.set(PDFName.of('SigFlags'), PDFNumber.of(SIG_FLAGS));
  catalog.set(PDFName.of('AcroForm'), doc.context.register(form));
}

/**
 * The signature's field, widget and dictionary with room for the signature, written with the rest of the
 * document (the last document step, after PDF/A). The byte step (signPdf) then only fills /ByteRange and
 * /Contents in place: the file's structure, and so its PDF/A check, is the one already made.
 */
export async function addSignaturePlaceholder(
  doc: PDFDocument,
  sign: SignOption,
  key: SigningKey,
  at: Date,
): Promise<void> {
  const { pageIndex, rect } = widgetRect(doc, sign.visible);
  const page = doc.getPage(pageIndex);
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = rect;
  const ap = await appearance(doc, sign, key, { width: x2 - x1, height: y2 - y1, at });
  const widget = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: rect,
      V: signatureDict(doc, sign, key, at),
      T: PDFString.of('Signature1'),
      F: PRINT_FLAG,
      P: page.ref,
      AP: { N: ap },
    }),
  );
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray) ?? PDFArray.withContext(doc.context);
  annots.push(widget);
  page.node.set(PDFName.of('Annots'), annots);
  addToForm(doc, widget);
}

/** @signpdf/signpdf's signer: the CMS over the byte ranges it hands over. */
class CadesSigner extends Signer {
  constructor(private readonly key: SigningKey) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    return signDetached(pdfBuffer, this.key);
  }
}

/** Fills the placeholder: the byte ranges, then the signature over them (the last step of all). */
export async function signPdf(pdf: Buffer, key: SigningKey): Promise<Buffer> {
  return new SignPdf().sign(pdf, new CadesSigner(key));
}
