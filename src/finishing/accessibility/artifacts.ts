import {
  PDFDict,
  type PDFDocument,
  PDFName,
  type PDFPage,
  type PDFRef,
  type PDFStream,
} from '@cantoo/pdf-lib';
import { contentBytes, formXObject, pageContents } from './content-tagged.js';
import { contentOperations, type Operand, PAINTING } from './content-tokens.js';

/**
 * PDF/UA-1 (Matterhorn 01-005) and PDF/A level A: content that is not real content is marked as an artifact.
 * Chromium tags every piece of text and every image with an MCID, but paints decoration (backgrounds, borders,
 * rules) outside any marked content, and pdf-lib's stamps are drawn the same way. Wrapping each such graphics
 * object in `/Artifact BMC … EMC` says so; tagged content and existing artifacts are left as they are.
 */

const PATH_CONSTRUCTION = new Set(['m', 'l', 'c', 'v', 'y', 'h', 're']);
/** Path painting and `n`, which ends a path (a clip) without painting it. */
const PATH_END = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'n']);
const OPEN = '/Artifact BMC\n';
const CLOSE = '\nEMC\n';

interface Insertion {
  at: number;
  text: string;
}

interface MarkContext {
  doc: PDFDocument;
  /** Form XObjects already rewritten (or being): each is rewritten once, however often it is painted. */
  forms: Set<string>;
  marked: number;
}

/** Marks every untagged painting operation of every page (and the forms they paint) as an artifact; returns how many. */
export function markUntaggedAsArtifacts(doc: PDFDocument): number {
  const context: MarkContext = { doc, forms: new Set(), marked: 0 };
  for (const page of doc.getPages()) markPage(page, context);
  return context.marked;
}

function markPage(page: PDFPage, context: MarkContext): void {
  const streams = pageContents(context.doc, page.node.lookup(PDFName.of('Contents')));
  if (streams.length === 0) return;
  const bytes = joined(streams.map((stream, i) => contentBytes(stream, `a content stream of page ${i + 1}`)));
  const insertions = artifactInsertions(bytes, page.node.Resources(), context);
  if (insertions.length === 0) return;
  const stream = context.doc.context.flateStream(withInsertions(bytes, insertions));
  page.node.set(PDFName.of('Contents'), context.doc.context.register(stream));
}

/** A form XObject's own content, rewritten in place (its dictionary kept, its filter now Flate). */
function markForm(ref: PDFRef, form: PDFStream, context: MarkContext): void {
  const resources = form.dict.lookupMaybe(PDFName.of('Resources'), PDFDict);
  const bytes = contentBytes(form, `the form XObject ${ref.toString()}`);
  const insertions = artifactInsertions(bytes, resources, context);
  if (insertions.length === 0) return;
  const entries: Record<string, unknown> = {};
  for (const [key, value] of form.dict.entries()) {
    const name = key.decodeText();
    if (name !== 'Filter' && name !== 'DecodeParms' && name !== 'Length') entries[name] = value;
  }
  const rewritten = context.doc.context.flateStream(withInsertions(bytes, insertions), entries as never);
  context.doc.context.assign(ref, rewritten);
}

/** Content streams read as one (ISO 32000-1 §7.8.2): a line break between them keeps tokens apart. */
function joined(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [Buffer.from('\n'), part])));
}

function withInsertions(bytes: Uint8Array, insertions: Insertion[]): Uint8Array {
  const ordered = [...insertions].sort((a, b) => a.at - b.at);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const { at, text } of ordered) {
    parts.push(bytes.subarray(from, at), Buffer.from(text, 'latin1'));
    from = at;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/**
 * Where to open and close an artifact around each graphics object painted outside marked content: a path
 * from its first construction operator to the one that paints it, anything else (text showing inside BT,
 * an image, a shading, an inline image) around its own operands and operator. Marked content never crosses
 * a graphics object, so the sequences nest with BT/ET and q/Q as ISO 32000-1 §14.6 requires.
 */
function artifactInsertions(
  bytes: Uint8Array,
  resources: PDFDict | undefined,
  context: MarkContext,
): Insertion[] {
  const insertions: Insertion[] = [];
  /** Open sequences: true for one that already covers its content (an MCID or an artifact). */
  const open: boolean[] = [];
  let pathStart: number | undefined;
  for (const { operator, operands, start, end } of contentOperations(bytes)) {
    if (operator === 'BDC' || operator === 'BMC') open.push(covers(operator, operands));
    else if (operator === 'EMC') open.pop();
    else if (PATH_CONSTRUCTION.has(operator)) pathStart ??= start;
    if (PATH_END.has(operator)) {
      const from = pathStart ?? start;
      pathStart = undefined;
      if (operator === 'n' || open.includes(true)) continue;
      insertions.push({ at: from, text: OPEN }, { at: end, text: CLOSE });
      context.marked++;
    } else if (PAINTING.has(operator) && !open.includes(true)) {
      const form = operator === 'Do' ? formXObject(context.doc, resources, operands) : undefined;
      if (form) {
        markFormOnce(form.key, form.stream, context);
        continue;
      }
      insertions.push({ at: start, text: OPEN }, { at: end, text: CLOSE });
      context.marked++;
    }
  }
  return insertions;
}

function markFormOnce(key: string, stream: PDFStream, context: MarkContext): void {
  if (context.forms.has(key)) return;
  context.forms.add(key);
  const ref = context.doc.context.getObjectRef(stream);
  if (ref) markForm(ref, stream, context);
}

/** A sequence covers its content when it is an artifact or carries an MCID (inline or named properties). */
function covers(operator: string, operands: Operand[]): boolean {
  const tag = (operator === 'BMC' ? operands.at(-1) : operands.at(-2)) as Operand | undefined;
  if (tag?.kind === 'name' && tag.value === 'Artifact') return true;
  if (operator === 'BMC') return false;
  const properties = operands.at(-1);
  return (properties?.kind === 'dict' && properties.mcid !== undefined) || properties?.kind === 'name';
}
