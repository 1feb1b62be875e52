import type { PDFDocument, PDFObject } from '@cantoo/pdf-lib';
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef } from '@cantoo/pdf-lib';
import { nameOf, refKey } from './pdf-values.js';

/** The structure tree, walked once for the checks that read it. */

export interface StructElement {
  /** The structure type after role mapping (Figure, Table, H1, …). */
  type: string;
  dict: PDFDict;
  /** The index after this element's last descendant in `elements`. */
  end: number;
}

export interface StructureTree {
  present: boolean;
  /** The structure elements in document (depth-first) order, the order assistive technology reads. */
  elements: StructElement[];
  /** Marked content the tree reaches: "<page or form XObject reference> <MCID>". */
  marked: Set<string>;
}

/** ISO 32000-1 §14.8.4: role mapping ends at one of these; a standard type is never mapped further. */
const STANDARD_TYPES = new Set(
  (
    'Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private P H H1 H2 H3 H4 H5 H6 ' +
    'L LI Lbl LBody Table TR TH TD THead TBody TFoot Span Quote Note Reference BibEntry Code Link Annot ' +
    'Ruby RB RT RP Warichu WT WP Figure Formula Form'
  ).split(' '),
);
/** Longer chains than any real role map; a circular one (02-003) stops here. */
const MAX_ROLE_STEPS = 16;

function mappedRole(type: string, roleMap: PDFDict | undefined): string {
  let role = type;
  for (let step = 0; step < MAX_ROLE_STEPS && !STANDARD_TYPES.has(role); step++) {
    const next = nameOf(roleMap?.lookup(PDFName.of(role)));
    if (next === undefined) break;
    role = next;
  }
  return role;
}

/** The key under which marked content is reached: its page (or form XObject) and its MCID. */
function markedKey(owner: string | undefined, mcid: number): string | undefined {
  return owner === undefined ? undefined : `${owner} ${mcid}`;
}

type WalkFrame = { kid: PDFObject | undefined; page: string | undefined } | { close: number };

/** The kids of a /K entry, in order: one object or an array of them. */
function kidsOf(k: PDFObject | undefined, doc: PDFDocument): PDFObject[] {
  const value = k instanceof PDFRef ? doc.context.lookup(k) : k;
  if (value instanceof PDFArray) return value.asArray();
  return value === undefined ? [] : [k as PDFObject];
}

/**
 * Depth-first over /K from the StructTreeRoot: elements, MCIDs (bare integers and MCR dictionaries,
 * with the /Pg inherited from the nearest element that has one) and subtree extents. A dictionary met
 * twice is skipped, so a cycle in a damaged tree ends the walk instead of looping.
 */
export function walkStructureTree(doc: PDFDocument): StructureTree {
  const root = doc.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
  const tree: StructureTree = { present: root !== undefined, elements: [], marked: new Set() };
  if (!root) return tree;
  const roleMap = root.lookupMaybe(PDFName.of('RoleMap'), PDFDict);
  const seen = new Set<PDFDict>();
  const stack: WalkFrame[] = kidsOf(root.get(PDFName.of('K')), doc)
    .reverse()
    .map((kid) => ({ kid, page: undefined }));
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if ('close' in frame) {
      const element = tree.elements[frame.close];
      if (element) element.end = tree.elements.length;
      continue;
    }
    const kid = frame.kid instanceof PDFRef ? doc.context.lookup(frame.kid) : frame.kid;
    if (kid instanceof PDFNumber) {
      const key = markedKey(frame.page, kid.asNumber());
      if (key) tree.marked.add(key);
      continue;
    }
    if (!(kid instanceof PDFDict) || seen.has(kid)) continue;
    seen.add(kid);
    visitStructDict(kid, frame.page, { doc, roleMap, tree, stack });
  }
  return tree;
}

interface WalkState {
  doc: PDFDocument;
  roleMap: PDFDict | undefined;
  tree: StructureTree;
  stack: WalkFrame[];
}

/** One dictionary of the tree: a marked-content reference, an object reference, or an element. */
function visitStructDict(dict: PDFDict, inherited: string | undefined, state: WalkState): void {
  const type = nameOf(dict.get(PDFName.of('Type')));
  const page = refKey(dict.get(PDFName.of('Pg'))) ?? inherited;
  if (type === 'MCR') {
    const mcid = dict.lookup(PDFName.of('MCID'));
    const owner = refKey(dict.get(PDFName.of('Stm'))) ?? page;
    const key = mcid instanceof PDFNumber ? markedKey(owner, mcid.asNumber()) : undefined;
    if (key) state.tree.marked.add(key);
    return;
  }
  if (type === 'OBJR') return; // an annotation or XObject, not marked content
  const structureType = nameOf(dict.get(PDFName.of('S')));
  if (structureType === undefined) return;
  const index = state.tree.elements.length;
  state.tree.elements.push({ type: mappedRole(structureType, state.roleMap), dict, end: index + 1 });
  state.stack.push({ close: index });
  const kids = kidsOf(dict.get(PDFName.of('K')), state.doc);
  for (let i = kids.length - 1; i >= 0; i--) state.stack.push({ kid: kids[i], page });
}
