import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import SaxonJS from 'saxonjs-he';
import { artefactPath, sefPathOf } from './artefacts.js';
import { type Schematron, type Severity, severityOf, simplifyLocation } from './plan.js';
import { childElements, parseXml, type XmlNode } from './xml-dom.js';

/** One rule a document broke (or a warning), in the answer's shape. */
export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  location: string;
}

const SVRL = 'http://purl.oclc.org/dsdl/svrl';

/** Compiled stylesheets by artefact, loaded once per worker thread (each SEF is a few MB of JSON). */
const loaded = new Map<string, unknown>();

function stylesheetOf(artefact: string): unknown {
  let sef = loaded.get(artefact);
  if (sef === undefined) {
    sef = JSON.parse(readFileSync(sefPathOf(artefact), 'utf8'));
    // SaxonJS prepares a stylesheet on its first run: do that on a one-element document, so the cost
    // (about a second per stylesheet) is paid here, outside any invoice's time budget.
    transform(sef, artefact, parseXml('<warm-up/>'));
    loaded.set(artefact, sef);
  }
  return sef;
}

function transform(sef: unknown, artefact: string, doc: XmlNode): XmlNode {
  const result = SaxonJS.transform(
    {
      stylesheetInternal: sef,
      stylesheetBaseURI: pathToFileURL(artefactPath(artefact)).href,
      sourceNode: doc,
      destination: 'raw',
    },
    'sync',
  ) as { principalResult: XmlNode };
  return result.principalResult;
}

/** Loads and prepares a stylesheet ahead of the first document that needs it. */
export function preloadSchematron(artefact: string): void {
  stylesheetOf(artefact);
}

/**
 * Runs one official schematron (compiled to SEF) over a parsed document and reads its SVRL report:
 * failed asserts and successful reports with their published flag (replaced by `customLevels` for the
 * rules KoSIT re-levels). The Factur-X stylesheets read their code lists with document() relative to
 * the stylesheet, so the stylesheet's own location is its base URI.
 */
export function runSchematron(
  doc: XmlNode,
  schematron: Schematron,
  customLevels: Record<string, Severity>,
): Finding[] {
  const output = transform(stylesheetOf(schematron.artefact), schematron.artefact, doc);
  // 'raw' gives the SVRL root element itself (a document node in some SaxonJS releases).
  const report = output.nodeType === 1 ? output : childElements(output)[0];
  if (report === undefined) return [noReport(schematron)];
  const findings: Finding[] = [];
  let fired = 0;
  for (const node of childElements(report)) {
    if (node.namespaceURI !== SVRL) continue;
    if (node.localName === 'fired-rule') fired++;
    else if (node.localName === 'failed-assert' || node.localName === 'successful-report')
      findings.push(findingOf(node, node.localName === 'successful-report', customLevels));
  }
  // A stylesheet none of whose rules matched has checked nothing: the reference validator fails it too.
  if (fired === 0) findings.push(noReport(schematron));
  return findings;
}

function findingOf(node: XmlNode, report: boolean, customLevels: Record<string, Severity>): Finding {
  const id = node.getAttribute('id') ?? '';
  const flag = node.getAttribute('flag') || node.getAttribute('role') || '';
  const text = childElements(node)
    .filter((child) => child.localName === 'text')
    .map((child) => child.textContent ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  // CEN and Factur-X texts start with the EN 16931 rule they implement: "[BR-CO-15]-Invoice total …".
  const ref = /^\[([A-Z][A-Za-z]*(?:-[A-Za-z0-9]+)+)\]/.exec(text)?.[1] ?? '';
  const rule = id || ref || 'SCHEMATRON';
  const custom = customLevels[rule] ?? (ref ? customLevels[ref] : undefined);
  return {
    rule,
    severity: custom ?? severityOf(flag, report),
    message: text,
    location: simplifyLocation(node.getAttribute('location') ?? ''),
  };
}

function noReport(schematron: Schematron): Finding {
  return {
    rule: 'SCHEMATRON-NOT-APPLICABLE',
    severity: 'error',
    message: `None of the ${schematron.name} rules applied to this document: it is not the kind of invoice those rules check.`,
    location: '/',
  };
}
