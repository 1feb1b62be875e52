import { FA3_NAMESPACE, FACTURX_CONFORMANCE_LEVELS, type Standard } from '../einvoice/index.js';
import { type PdfFacts, type PdfInvoice, readPdfInvoice } from './pdf-invoice.js';
import {
  type InboundProfile,
  planCii,
  planKsef,
  planUbl,
  type Schematron,
  type Syntax,
  standardOf,
  type ValidationPlan,
} from './plan.js';
import { baseForced, withNationalRules } from './plan-national.js';
import { InboundRefusal } from './refusal.js';
import { type AppliedRuleSet, ruleSetsOf } from './rule-sets.js';
import { type Finding, preloadSchematron, refuseIfPending, runSchematron } from './schematron.js';
import { childElements, parseXml, rootOf, type XmlNode } from './xml-dom.js';
import { checkXsd, preloadXsd } from './xsd.js';

/** POST /v1/e-invoices/validate's answer. */
export interface ValidationReport {
  valid: boolean;
  syntax: Syntax;
  standard: Standard;
  profile: ValidationPlan['profile'];
  guideline_id: string;
  errors: Finding[];
  warnings: Finding[];
  /** The official rule sets and releases the check ran (extension). */
  rules: AppliedRuleSet[];
  pdf?: PdfFacts;
}

export const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  ublInvoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  ublCreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ksefFa3: FA3_NAMESPACE,
} as const;

/** KSeF's previous structure FA(2), in use until 31 January 2026. */
const KSEF_FA2_NAMESPACE = 'http://crd.gov.pl/wzor/2023/06/29/12648/';

/** A received document: its XML text, parsed tree, root element and (for a PDF) the PDF around it. */
export interface ReceivedInvoice {
  xml: string;
  doc: XmlNode;
  root: XmlNode;
  syntax: Syntax;
  pdf: PdfInvoice | undefined;
}

function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');
}

function describe(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 64)).toString('latin1');
  if (head.startsWith('PK')) return 'a ZIP archive (or an Office file)';
  if (/^\s*[{[]/.test(head)) return 'JSON';
  return 'neither XML nor a PDF';
}

/** Reads the upload: an XML e-invoice (CII or UBL) or a PDF carrying one. */
export async function readReceived(bytes: Uint8Array): Promise<ReceivedInvoice> {
  const pdf = isPdf(bytes) ? await readPdfInvoice(bytes) : undefined;
  const xml =
    pdf?.xml ??
    Buffer.from(bytes)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  if (pdf === undefined && !/^\s*</.test(xml))
    throw new InboundRefusal(
      `the file is ${describe(bytes)}: send an e-invoice XML (CII or UBL) or a Factur-X/ZUGFeRD PDF`,
    );
  let doc: XmlNode;
  try {
    doc = parseXml(xml);
  } catch (err) {
    throw new InboundRefusal(
      `the ${pdf ? "PDF's embedded " : ''}XML is not well-formed (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const root = rootOf(doc);
  const syntax = root ? syntaxOf(root) : undefined;
  if (root?.localName === 'Faktura' && root.namespaceURI === KSEF_FA2_NAMESPACE)
    throw new InboundRefusal(
      'the XML is a KSeF FA(2) invoice, a structure replaced by FA(3) on 1 February 2026: Quire reads FA(3) (namespace http://crd.gov.pl/wzor/2025/06/25/13775/)',
    );
  if (root === undefined || syntax === undefined)
    throw new InboundRefusal(
      `the XML's root element is {${root?.namespaceURI ?? ''}}${root?.localName ?? ''}, which is neither a CII CrossIndustryInvoice, a UBL Invoice or CreditNote, nor a KSeF FA(3) Faktura`,
    );
  return { xml, doc, root, syntax, pdf };
}

function syntaxOf(root: XmlNode): Syntax | undefined {
  if (root.namespaceURI === NS.rsm && root.localName === 'CrossIndustryInvoice') return 'cii';
  if (root.namespaceURI === NS.ublInvoice && root.localName === 'Invoice') return 'ubl';
  if (root.namespaceURI === NS.ublCreditNote && root.localName === 'CreditNote') return 'ubl';
  if (root.namespaceURI === NS.ksefFa3 && root.localName === 'Faktura') return 'ksef';
  return undefined;
}

/** The normalised text of the first element found by following local names (namespace-checked on the way). */
export function pathText(node: XmlNode, ...names: string[]): string {
  let current: XmlNode | undefined = node;
  for (const name of names) current = current && childElements(current).find((c) => c.localName === name);
  return (current?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The guideline id (BT-24) and the checks the document's declaration calls for. */
export function planOf(
  received: ReceivedInvoice,
  forced?: InboundProfile,
): { plan: ValidationPlan; guidelineId: string } {
  const { root, syntax } = received;
  if (syntax === 'ksef') {
    if (forced !== undefined)
      throw new InboundRefusal(
        `this document is a KSeF FA(3) invoice, checked against the FA(3) schema: profile "${forced}" does not apply`,
      );
    const form = childElements(root).find((c) => c.localName === 'Naglowek');
    const code = form && childElements(form).find((c) => c.localName === 'KodFormularza');
    // FA(3) has no BT-24: the form code and schema version it declares stand in for it ("FA (3) 1-0E").
    const guidelineId =
      `${code?.getAttribute('kodSystemowy') ?? ''} ${code?.getAttribute('wersjaSchemy') ?? ''}`.trim();
    return { plan: planKsef(), guidelineId };
  }
  if (syntax === 'cii') {
    const guidelineId = pathText(
      root,
      'ExchangedDocumentContext',
      'GuidelineSpecifiedDocumentContextParameter',
      'ID',
    );
    if (forced === 'peppol' || forced === 'hr-cius')
      throw new InboundRefusal(
        `${forced === 'peppol' ? 'Peppol BIS Billing 3.0' : 'HR-CIUS'} is UBL only: this document is CII, so profile "${forced}" does not apply`,
      );
    const businessProcess = pathText(
      root,
      'ExchangedDocumentContext',
      'BusinessProcessSpecifiedDocumentContextParameter',
      'ID',
    );
    const plan = planCii(guidelineId, baseForced(forced));
    return { plan: withNationalRules(plan, { guidelineId, businessProcess, forced }), guidelineId };
  }
  const guidelineId = pathText(root, 'CustomizationID');
  const profileId = pathText(root, 'ProfileID');
  const plan = planUbl(root.localName === 'CreditNote', guidelineId, baseForced(forced), profileId);
  return { plan: withNationalRules(plan, { guidelineId, businessProcess: profileId, forced }), guidelineId };
}

/** Checks the PDF around a Factur-X/ZUGFeRD XML can make without veraPDF: how the XML is attached and declared. */
function pdfFindings(facts: PdfFacts, plan: ValidationPlan): Finding[] {
  const findings: Finding[] = [];
  const error = (rule: string, message: string) =>
    findings.push({ rule, severity: 'error', message, location: 'PDF' });
  const { attachment, pdf_a } = facts;
  if (pdf_a.declared === null)
    error('PDFA-6.6.4', 'The PDF does not declare PDF/A (XMP pdfaid:part): Factur-X needs PDF/A-3.');
  else if (!pdf_a.declared.startsWith('3'))
    error('PDFA-6.6.4', `The PDF declares PDF/A-${pdf_a.declared}; Factur-X embeds its XML in PDF/A-3.`);
  if (pdf_a.encrypted) error('PDFA-6.1.3', 'The PDF is encrypted, which PDF/A forbids.');
  if (!pdf_a.output_intent)
    error('PDFA-OUTPUTINTENT-MISSING', 'The PDF has no OutputIntent with an ICC profile.');
  if (!attachment.associated)
    error(
      'PDFA-6.8',
      `${attachment.name} is not listed in the catalog's /AF array (PDF/A-3 associated file).`,
    );
  if (attachment.relationship === null) error('PDFA-6.8', `${attachment.name} has no /AFRelationship.`);
  const level = attachment.conformance_level;
  const expected = plan.conformanceLevel ?? CONFORMANCE_LEVELS[plan.profile];
  if (level === null)
    error('FX-XMP', 'The XMP metadata has no fx:ConformanceLevel (Factur-X extension schema).');
  else if (expected !== undefined && level.toUpperCase() !== expected)
    error('FX-XMP', `XMP fx:ConformanceLevel is ${level} but the XML declares the ${expected} profile.`);
  return findings;
}

/** The profiles a Factur-X XMP can name; the others (Peppol, XRechnung extension, unknown) have no level to check. */
const CONFORMANCE_LEVELS: Partial<Record<ValidationPlan['profile'], string>> = FACTURX_CONFORMANCE_LEVELS;

/**
 * One rule set over the document. A rule set that stops with a dynamic error in SaxonJS (the Factur-X
 * EXTENDED stylesheet does on some documents: an xs:double where SaxonJS wants xs:decimal, which Java Saxon
 * accepts) is reported as a warning naming what was not checked, so the verdict never claims more than ran.
 */
function checkSchematron(doc: XmlNode, schematron: Schematron, plan: ValidationPlan): Finding[] {
  try {
    return runSchematron(doc, schematron, plan.customLevels);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return [
      {
        rule: 'SCHEMATRON-NOT-RUN',
        severity: 'warning',
        message: `The ${schematron.name} rules stopped on this document (${reason.slice(0, 300)}); the verdict covers the XSD and the other rule sets only.`,
        location: '/',
      },
    ];
  }
}

/**
 * Validates a received e-invoice with the official rules: the XSD, then the schematrons one after the
 * other, as the reference validator does.
 */
export async function validateReceived(
  bytes: Uint8Array,
  forced?: InboundProfile,
  rulesReady: () => void = () => {},
): Promise<ValidationReport> {
  const received = await readReceived(bytes);
  const { plan, guidelineId } = planOf(received, forced);
  refuseIfPending(plan.schematrons.map((schematron) => schematron.artefact));
  // Loading the official rules is the server's one-time cost, not the file's: the time budget restarts.
  for (const schematron of plan.schematrons) preloadSchematron(schematron.artefact);
  preloadXsd(plan.xsd);
  rulesReady();
  const findings: Finding[] = checkXsd(received.xml, plan.xsd);
  for (const schematron of plan.schematrons)
    findings.push(...checkSchematron(received.doc, schematron, plan));
  if (received.pdf) findings.push(...pdfFindings(received.pdf.facts, plan));
  for (const note of plan.notes)
    findings.push({ rule: 'PROFILE-UNKNOWN', severity: 'warning', message: note, location: '/' });
  const errors = findings.filter((f) => f.severity === 'error');
  return {
    valid: errors.length === 0,
    syntax: plan.syntax,
    standard: standardOf(plan, received.pdf?.facts.attachment.name),
    profile: plan.profile,
    guideline_id: guidelineId,
    errors,
    warnings: findings.filter((f) => f.severity !== 'error'),
    rules: ruleSetsOf([plan.xsd, ...plan.schematrons.map((s) => s.artefact)]),
    ...(received.pdf ? { pdf: received.pdf.facts } : {}),
  };
}
