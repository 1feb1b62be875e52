import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import SaxonJS from 'saxonjs-he';
import {
  artefactPath,
  DEFAULT_RULES_DIR,
  type RulesLocation,
  RulesNotReady,
  sefPathOf,
} from './artefacts.js';
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

/** A compiled stylesheet, with the files it reads through document() already parsed. */
interface LoadedStylesheet {
  sef: Record<string, unknown>;
  baseUri: string;
  documents: Record<string, XmlNode>;
}

/** Compiled stylesheets by artefact, loaded once per worker thread (each SEF is a few MB of JSON). */
const loaded = new Map<string, LoadedStylesheet>();

/**
 * The SEF's SHA-256 checksum property. SaxonJS on Node checks it on every transform by serialising the
 * whole stylesheet tree and hashing it: for the CEN UBL rules that was most of a validation's CPU and
 * garbage. It is checked once, on the warm-up run, then dropped from this thread's in-memory copy.
 */
const SEF_CHECKSUM = `${String.fromCharCode(931)}2`;

/** Where this thread's SEF files are and which are still being compiled: set by each task (worker.ts). */
let rules: RulesLocation = { dir: DEFAULT_RULES_DIR, pending: [] };

export function useRules(location: RulesLocation): void {
  rules = location;
}

/**
 * Refuses a check at once when a stylesheet it needs is still being compiled, before the others are loaded
 * (seconds each on a worker's first check): the answer is service_busy either way, and it then comes while
 * the compile it names is still running.
 */
export function refuseIfPending(artefacts: readonly string[]): void {
  const pending = artefacts.find((artefact) => rules.pending.includes(artefact));
  if (pending !== undefined) throw new RulesNotReady(pending);
}

/** The stylesheet's SEF, unless it is missing or still being compiled (RulesNotReady: service_busy). */
function readSef(artefact: string): Record<string, unknown> {
  refuseIfPending([artefact]);
  let text: string;
  try {
    text = readFileSync(sefPathOf(artefact, rules.dir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new RulesNotReady(artefact);
    throw err;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

function stylesheetOf(artefact: string): LoadedStylesheet {
  let stylesheet = loaded.get(artefact);
  if (stylesheet === undefined) {
    const baseUri = pathToFileURL(artefactPath(artefact)).href;
    stylesheet = {
      sef: readSef(artefact),
      baseUri,
      documents: documentsOf(artefact, baseUri),
    };
    // SaxonJS prepares a stylesheet on its first run: do that on a one-element document, so the cost
    // (about a second per stylesheet) is paid here, outside any invoice's time budget.
    transform(stylesheet, parseXml('<warm-up/>'));
    delete stylesheet.sef[SEF_CHECKSUM];
    loaded.set(artefact, stylesheet);
  }
  return stylesheet;
}

/**
 * The official files a stylesheet reads with document('…') (the Factur-X code lists, up to 270 KB each),
 * parsed once: SaxonJS's document pool of a transform starts empty, so without this every check parsed
 * them again.
 */
function documentsOf(artefact: string, baseUri: string): Record<string, XmlNode> {
  const source = readFileSync(artefactPath(artefact), 'utf8');
  const names = new Set([...source.matchAll(/document\('([^'$]+)'\)/g)].map((m) => m[1] as string));
  const documents: Record<string, XmlNode> = {};
  for (const name of names) {
    const url = new URL(name, baseUri);
    documents[url.href] = parseXml(readFileSync(url, 'utf8'));
  }
  return documents;
}

function transform(stylesheet: LoadedStylesheet, doc: XmlNode): XmlNode {
  const result = SaxonJS.transform(
    {
      stylesheetInternal: stylesheet.sef,
      stylesheetBaseURI: stylesheet.baseUri,
      documentPool: stylesheet.documents,
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
  const output = transform(stylesheetOf(schematron.artefact), doc);
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
