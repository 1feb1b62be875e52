import type { PDFDocument } from '@cantoo/pdf-lib';
import { checkContentTagged } from './content-tagged.js';
import { checkLanguage, checkStructureTree, checkTitleDisplayed, isTagged } from './document-checks.js';
import { checkFontsEmbedded } from './fonts.js';
import type { Outcome } from './outcome.js';
import type { AccessibilityCheck, AccessibilityReport } from './report.js';
import { checkFigureAlt, checkHeadingLevels, checkTableHeaders } from './structure-checks.js';
import { type StructureTree, walkStructureTree } from './structure-tree.js';

export { type AccessibilityCheck, type AccessibilityReport, accessibilityHeader } from './report.js';

/**
 * The PDF/UA-1 conditions software can decide (Matterhorn Protocol 1.1 failure conditions marked
 * "machine"), reported for the PDFs Quire makes. Not a full validator: what a person must judge
 * (reading order, whether alt text is apt) is out of reach, and so are the font-program and CMap
 * internals of checkpoint 31 beyond embedding and Unicode mapping.
 */

interface CheckSpec {
  id: string;
  title: string;
  run(doc: PDFDocument, tree: () => StructureTree): Outcome;
}

const CHECKS: CheckSpec[] = [
  {
    id: 'structure_tree',
    title: 'Tagged PDF: /MarkInfo /Marked true, a /StructTreeRoot, no /Suspects (UA1 7.1; Matterhorn 01-007)',
    run: (doc) => checkStructureTree(doc),
  },
  {
    id: 'content_tagged',
    title: 'Page content is tagged real content or an artifact (Matterhorn 01-005)',
    run: (doc, tree) => checkContentTagged(doc, tree()),
  },
  {
    id: 'figure_alt',
    title: 'Every <Figure> has alternative or replacement text (Matterhorn 13-004)',
    run: (_doc, tree) => checkFigureAlt(tree()),
  },
  {
    id: 'table_headers',
    title: 'Every <Table> has a <TH> header cell (Matterhorn checkpoint 15)',
    run: (_doc, tree) => checkTableHeaders(tree()),
  },
  {
    id: 'heading_levels',
    title: 'Numbered headings start at <H1> and skip no level (Matterhorn 14-002, 14-003)',
    run: (_doc, tree) => checkHeadingLevels(tree()),
  },
  {
    id: 'language',
    title: 'The catalog declares the natural language in /Lang (Matterhorn 11-006)',
    run: (doc) => checkLanguage(doc),
  },
  {
    id: 'title_displayed',
    title:
      'A document title, shown in the title bar: /DisplayDocTitle true (Matterhorn 06-003, 07-001, 07-002)',
    run: (doc) => checkTitleDisplayed(doc),
  },
  {
    id: 'fonts_embedded',
    title: 'Every font on the pages is embedded and maps to Unicode (Matterhorn 31-009, 31-027)',
    run: (doc) => checkFontsEmbedded(doc),
  },
];

/** Checks `doc` against each condition; a malformed object fails the check that met it, never throws. */
export function checkAccessibility(doc: PDFDocument): AccessibilityReport {
  const tree = once(() => walkStructureTree(doc));
  const checks = CHECKS.map((spec) => runCheck(spec, doc, tree));
  const failures = checks.reduce((sum, check) => sum + check.count, 0);
  return {
    tagged: isTagged(doc),
    ua1: checks.every((check) => check.passed) ? 'pass' : 'fail',
    failures,
    checks,
  };
}

function runCheck(spec: CheckSpec, doc: PDFDocument, tree: () => StructureTree): AccessibilityCheck {
  let outcome: Outcome;
  try {
    outcome = spec.run(doc, tree);
  } catch (err) {
    // A dangling reference, a wrong type, a cycle deep enough to overflow the stack or a stream past its
    // decoding cap (capped-decode.ts names it): the file is malformed or too large where this check
    // looks, which is its failure, not the whole report's.
    outcome = {
      count: 1,
      detail: `could not be checked: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const check: AccessibilityCheck = {
    id: spec.id,
    title: spec.title,
    passed: outcome.count === 0,
    count: outcome.count,
  };
  if (outcome.detail !== undefined) check.detail = outcome.detail;
  return check;
}

/** Computes once and gives the same result, or throws the same error, to every caller. */
function once<T>(compute: () => T): () => T {
  let result: { value: T } | { error: unknown } | undefined;
  return () => {
    if (result === undefined) {
      try {
        result = { value: compute() };
      } catch (error) {
        result = { error };
      }
    }
    if ('error' in result) throw result.error;
    return result.value;
  };
}
