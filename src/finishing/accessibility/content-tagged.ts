import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFStream,
} from '@cantoo/pdf-lib';
import { decodedForCheck } from './capped-decode.js';
import { contentOperations, type Operand, PAINTING } from './content-tokens.js';
import { listed, type Outcome } from './outcome.js';
import { nameOf, refKey } from './pdf-values.js';
import type { StructureTree } from './structure-tree.js';

/** Page content: every painting operator inside an MCID the tree reaches, or inside an /Artifact. */

/** One content stream's decoded bytes are capped; Quire's own pages decode to far less. */
export const MAX_CONTENT_BYTES = 64 * 1024 * 1024;
/** Form XObjects nest a few levels in real files; deeper is a loop in a damaged one. */
const MAX_FORM_DEPTH = 12;

interface ContentTally {
  /** Runs of painting operators outside any tagged or artifact sequence. */
  untagged: number;
  /** Runs painted inside a sequence whose MCID the structure tree does not reach. */
  unreached: number;
  /** EMC without a sequence to end, or a sequence the stream never ends. */
  unbalanced: number;
  /** The pages (from 1) where any of these were found. */
  pages: Set<number>;
}

/** A marked-content sequence's standing: it tags its content, marks it an artifact, or neither. */
type Sequence = 'tagged' | 'artifact' | 'unreached' | 'plain';

interface ScanContext {
  doc: PDFDocument;
  marked: Set<string>;
  tally: ContentTally;
  forms: Set<string>;
  /** The page being scanned, from 1. */
  page: number;
}

export function checkContentTagged(doc: PDFDocument, tree: StructureTree): Outcome {
  const tally: ContentTally = { untagged: 0, unreached: 0, unbalanced: 0, pages: new Set() };
  const context: ScanContext = { doc, marked: tree.marked, tally, forms: new Set(), page: 0 };
  for (const [index, page] of doc.getPages().entries()) {
    context.page = index + 1;
    const streams = pageContents(doc, page.node.lookup(PDFName.of('Contents')));
    scanContent(streams, page.node.Resources(), page.ref.toString(), context, 0);
  }
  const parts = [
    tally.untagged > 0 ? `${tally.untagged} painting runs outside marked content` : '',
    tally.unreached > 0
      ? `${tally.unreached} painting runs in marked content the structure tree does not reach`
      : '',
    tally.unbalanced > 0 ? `${tally.unbalanced} unbalanced BDC/BMC/EMC` : '',
  ].filter(Boolean);
  const count = tally.untagged + tally.unreached + tally.unbalanced;
  if (count === 0) return { count };
  return { count, detail: `${parts.join('; ')} (pages ${listed([...tally.pages].map(String), 10)})` };
}

function countFailure(context: ScanContext, kind: 'untagged' | 'unreached' | 'unbalanced', by = 1): void {
  context.tally[kind] += by;
  context.tally.pages.add(context.page);
}

/** A page's /Contents: one stream or an array of them, read as one stream as ISO 32000-1 §7.8.2 says. */
export function pageContents(doc: PDFDocument, contents: PDFObject | undefined): PDFStream[] {
  if (contents === undefined) return [];
  if (contents instanceof PDFStream) return [contents];
  if (!(contents instanceof PDFArray)) throw new Error('a page /Contents is neither a stream nor an array');
  return contents.asArray().map((item) => {
    const stream = doc.context.lookup(item);
    if (!(stream instanceof PDFStream)) throw new Error('a page /Contents array holds a non-stream');
    return stream;
  });
}

/**
 * A content stream's bytes: a parsed file's raw stream decoded (capped), or pdf-lib's own new one. One
 * past the cap throws an error naming `what`, which fails this check with that detail.
 */
export function contentBytes(stream: PDFStream, what: string): Uint8Array {
  if (stream instanceof PDFRawStream)
    return decodedForCheck(stream, MAX_CONTENT_BYTES, what) ?? new Uint8Array(0);
  // A stream pdf-lib made in this process (drawText on a loaded page) still holds its operators.
  const unencoded = (stream as { getUnencodedContents?: () => Uint8Array }).getUnencodedContents;
  if (typeof unencoded === 'function') return unencoded.call(stream);
  throw new Error('a content stream of an unknown kind');
}

/**
 * Scans content streams read as one, keeping the open marked-content sequences across them. A form
 * XObject painted outside any sequence is scanned in turn: its own MCIDs are reached through MCRs
 * naming it in /Stm. Painted inside one, the sequence covers all of it.
 */
function scanContent(
  streams: PDFStream[],
  resources: PDFDict | undefined,
  owner: string,
  context: ScanContext,
  depth: number,
): void {
  const open: Sequence[] = [];
  let inRun = false;
  const what =
    depth === 0
      ? `a content stream of page ${context.page}`
      : `the form XObject ${owner} painted on page ${context.page}`;
  for (const stream of streams) {
    for (const { operator, operands } of contentOperations(contentBytes(stream, what))) {
      if (operator === 'BDC' || operator === 'BMC') {
        open.push(sequenceOf(operator, operands, resources, owner, context.marked));
        inRun = false;
      } else if (operator === 'EMC') {
        if (open.pop() === undefined) countFailure(context, 'unbalanced');
        inRun = false;
      } else if (PAINTING.has(operator)) {
        const standing = standingOf(open);
        if (standing === 'tagged' || standing === 'artifact') continue;
        const form = operator === 'Do' ? formXObject(context.doc, resources, operands) : undefined;
        if (form && standing === 'plain') {
          scanForm(form, context, depth);
          continue;
        }
        if (!inRun) countFailure(context, standing === 'unreached' ? 'unreached' : 'untagged');
        inRun = true;
      }
    }
  }
  if (open.length > 0) countFailure(context, 'unbalanced', open.length);
}

function scanForm(form: { key: string; stream: PDFStream }, context: ScanContext, depth: number): void {
  if (depth >= MAX_FORM_DEPTH || context.forms.has(form.key)) return;
  context.forms.add(form.key);
  const resources = form.stream.dict.lookupMaybe(PDFName.of('Resources'), PDFDict);
  scanContent([form.stream], resources, form.key, context, depth + 1);
}

/** The innermost sequence that decides: an artifact or a reached MCID covers everything inside it. */
function standingOf(open: Sequence[]): Sequence {
  for (let i = open.length - 1; i >= 0; i--) {
    const sequence = open[i];
    if (sequence !== 'plain' && sequence !== undefined) return sequence;
  }
  return 'plain';
}

function sequenceOf(
  operator: string,
  operands: Operand[],
  resources: PDFDict | undefined,
  owner: string,
  marked: Set<string>,
): Sequence {
  const tagOperand = operator === 'BMC' ? operands.at(-1) : operands.at(-2);
  const tag = tagOperand?.kind === 'name' ? tagOperand.value : undefined;
  if (tag === 'Artifact') return 'artifact';
  if (operator === 'BMC') return 'plain';
  const mcid = mcidOf(operands.at(-1), resources);
  if (mcid === undefined) return 'plain';
  return marked.has(`${owner} ${mcid}`) ? 'tagged' : 'unreached';
}

/** The MCID of a BDC's properties: an inline dictionary, or a name in the resources' /Properties. */
function mcidOf(properties: Operand | undefined, resources: PDFDict | undefined): number | undefined {
  if (properties?.kind === 'dict') return properties.mcid;
  if (properties?.kind !== 'name') return undefined;
  const dict = resources
    ?.lookupMaybe(PDFName.of('Properties'), PDFDict)
    ?.lookupMaybe(PDFName.of(properties.value), PDFDict);
  const mcid = dict?.lookup(PDFName.of('MCID'));
  return mcid instanceof PDFNumber ? mcid.asNumber() : undefined;
}

/** The form XObject a `Do` paints, with the key its MCRs name it by; undefined for an image or a miss. */
export function formXObject(
  doc: PDFDocument,
  resources: PDFDict | undefined,
  operands: Operand[],
): { key: string; stream: PDFStream } | undefined {
  const name = operands.at(-1);
  if (name?.kind !== 'name') return undefined;
  const ref = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict)?.get(PDFName.of(name.value));
  const stream = ref === undefined ? undefined : doc.context.lookup(ref);
  if (!(stream instanceof PDFStream) || nameOf(stream.dict.get(PDFName.of('Subtype'))) !== 'Form')
    return undefined;
  return { key: refKey(ref) ?? `form ${name.value}`, stream };
}
