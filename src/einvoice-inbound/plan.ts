import type { Standard } from '../einvoice/index.js';
import { frenchStandard } from './plan-national.js';

/**
 * Which official artefacts check a received e-invoice (the same choice as tools/einvoice-validate, the
 * reference validator the tests compare against): the XSD and schematron stylesheets for the syntax and
 * the profile the document declares (CII GuidelineSpecifiedDocumentContextParameter/ID, UBL
 * CustomizationID), and KoSIT's severity overrides for XRechnung. Pure: no I/O.
 */

/** `ksef`: Poland's national FA(3) structure (not EN 16931), checked against its XML schema alone. */
export type Syntax = 'cii' | 'ubl' | 'ksef';

/** Profiles the validator tells apart; `peppol` is Peppol BIS Billing 3.0 (UBL only). */
export const INBOUND_PROFILES = [
  'minimum',
  'basic-wl',
  'basic',
  'en16931',
  'extended',
  'xrechnung',
  'xrechnung-extension',
  'peppol',
  // National profiles (plan-national.ts): France's CTC rules, Croatia's HR-CIUS.
  'fr-ctc',
  'hr-cius',
] as const;
export type InboundProfile = (typeof INBOUND_PROFILES)[number];

export interface Schematron {
  /** Name shown with each finding, as the reference validator prints it (e.g. EN16931-CII). */
  name: string;
  /** Path under tools/einvoice-validate/artefacts/. */
  artefact: string;
}

export interface ValidationPlan {
  syntax: Syntax;
  /** `fa3`: KSeF FA(3), whose only official artefact is its schema. */
  profile: InboundProfile | 'unknown' | 'fa3';
  /** Main XSD, under the artefacts directory. */
  xsd: string;
  schematrons: Schematron[];
  /** Rule id → severity that replaces the published flag (KoSIT's scenario configuration). */
  customLevels: Record<string, Severity>;
  /** Said once as a warning (e.g. an unrecognised guideline id). */
  notes: string[];
  /** A national profile's underlying profile (fr-ctc: en16931, basic-wl, extended-ctc-fr, …). */
  base?: string;
  /** The Factur-X XMP level a PDF must declare when the profile's own name is not one (fr-ctc). */
  conformanceLevel?: string;
}

export type Severity = 'error' | 'warning' | 'information';

const XR_CIUS = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
const XR_EXT = `${XR_CIUS}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`;
const XR_CVD_PREFIX = `${XR_CIUS}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_`;
export const PEPPOL_CIUS = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';

const CEN_CII: Schematron = { name: 'EN16931-CII', artefact: 'en16931/EN16931-CII-validation.xslt' };
const CEN_UBL: Schematron = { name: 'EN16931-UBL', artefact: 'en16931/EN16931-UBL-validation.xslt' };
const XR_CII: Schematron = { name: 'XRECHNUNG-CII', artefact: 'xrechnung/XRechnung-CII-validation.xsl' };
const XR_UBL: Schematron = { name: 'XRECHNUNG-UBL', artefact: 'xrechnung/XRechnung-UBL-validation.xsl' };
const PEPPOL_UBL: Schematron = {
  name: 'PEPPOL-EN16931-UBL',
  artefact: 'peppol/3.0.21/PEPPOL-EN16931-UBL.xslt',
};
const XSD_D16B = 'xsd/cii-d16b/CrossIndustryInvoice_100pD16B.xsd';
const XSD_UBL_INVOICE = 'xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd';
/** The Ministry of Finance's FA(3) schema, unmodified (its base types resolve locally: xsd.ts). */
export const XSD_KSEF_FA3 = 'ksef/FA3/schemat_FA(3)_v1-0E.xsd';
const XSD_UBL_CREDIT_NOTE = 'xsd/ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd';

/** What most received invoices need (CEN rules and schemas of both syntaxes): a pool worker loads it first. */
export const COMMON_RULES = {
  schematrons: [CEN_UBL.artefact, CEN_CII.artefact],
  schemas: [XSD_UBL_INVOICE, XSD_D16B],
};

/**
 * Factur-X profiles: directory, XSD file stem and schematron name (also the schematron's file stem). The
 * schematrons are release 1.09.2 (tools/einvoice-validate/artefacts/facturx-1.09.2/); the XSDs keep the
 * 1.09 file names under facturx/ (their content is 1.09.2's).
 */
const FACTURX = {
  minimum: { dir: 'minimum', stem: 'MINIMUM', name: 'FACTUR-X_MINIMUM', cen: false },
  'basic-wl': { dir: 'basicwl', stem: 'BASICWL', name: 'FACTUR-X_BASIC-WL', cen: false },
  basic: { dir: 'basic', stem: 'BASIC', name: 'FACTUR-X_BASIC', cen: true },
  en16931: { dir: 'en16931', stem: 'EN16931', name: 'FACTUR-X_EN16931', cen: true },
  extended: { dir: 'extended', stem: 'EXTENDED', name: 'FACTUR-X_EXTENDED', cen: false },
} as const;
const FACTURX_RULES_DIR = 'facturx-1.09.2';

/** The profile a CII guideline id declares, or undefined when none is recognised. */
export function ciiProfileOf(guidelineId: string): InboundProfile | 'en16931-cius' | undefined {
  switch (guidelineId) {
    case 'urn:factur-x.eu:1p0:minimum':
      return 'minimum';
    case 'urn:factur-x.eu:1p0:basicwl':
      return 'basic-wl';
    case 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic':
      return 'basic';
    case 'urn:cen.eu:en16931:2017':
      return 'en16931';
    case 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended':
    case 'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr':
      return 'extended';
    case XR_CIUS:
      return 'xrechnung';
    case XR_EXT:
      return 'xrechnung-extension';
  }
  if (guidelineId.startsWith(XR_CIUS)) return 'xrechnung';
  if (guidelineId.startsWith('urn:cen.eu:en16931:2017#compliant#')) return 'en16931-cius';
  return undefined;
}

/**
 * The business processes (BT-23, UBL ProfileID) of Peppol BIS Billing 3.0.21: billing 01 (with the two
 * French Peppol profiles, which the rules treat as 01) and 02, billing with response.
 */
const PEPPOL_PROFILE_IDS: ReadonlySet<string> = new Set([
  'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  'urn:peppol:france:billing:regulated',
  'urn:peppol:france:billing:non-regulated',
  'urn:peppol:bis:billing_with_response',
]);

/**
 * The profile a UBL document declares: BT-24 (CustomizationID), and BT-23 (ProfileID) for Peppol. A
 * document sent in Peppol's billing process is a Peppol BIS document whatever its CustomizationID says, as
 * Peppol's validators treat it, so a plain EN 16931 CustomizationID beside Peppol's ProfileID meets
 * PEPPOL-EN16931-R004. XRechnung keeps its own rules: German invoices travel over Peppol in Peppol's
 * billing process with XRechnung's CustomizationID, and KoSIT's rules are the ones that apply to them.
 */
export function ublProfileOf(customizationId: string, profileId = ''): InboundProfile {
  if (customizationId === XR_EXT) return 'xrechnung-extension';
  if (customizationId.startsWith(XR_CIUS)) return 'xrechnung';
  if (customizationId.startsWith(PEPPOL_CIUS)) return 'peppol';
  if (PEPPOL_PROFILE_IDS.has(profileId)) return 'peppol';
  return 'en16931';
}

function kositLevels(rules: string[], level: Severity): Record<string, Severity> {
  return Object.fromEntries(rules.map((rule) => [rule, level]));
}

/** KoSIT's validator configuration (scenarios.xml) for XRechnung CII and its extension. */
function kositCii(extension: boolean): Record<string, Severity> {
  return {
    'BR-CL-23': 'warning',
    ...(extension
      ? kositLevels(['BR-CL-21', 'BR-CL-11', 'BR-CL-10', 'BR-CL-24', 'BR-CL-25', 'BR-CL-26'], 'information')
      : { 'BR-CL-21': 'warning' }),
    ...kositLevels(['CII-SR-452', 'CII-SR-453', 'CII-SR-454'], 'error'),
  };
}

/** The checks for a CII document with the given guideline id; `forced` replaces the declared profile. */
export function planCii(guidelineId: string, forced?: InboundProfile): ValidationPlan {
  const detected = ciiProfileOf(guidelineId);
  const profile = forced ?? detected;
  const notes: string[] = [];
  const plan = (p: ValidationPlan['profile'], xsd: string, schematrons: Schematron[]): ValidationPlan => ({
    syntax: 'cii',
    profile: p,
    xsd,
    schematrons,
    customLevels: {},
    notes,
  });
  if (profile === 'xrechnung' || profile === 'xrechnung-extension') {
    const result = plan(profile, XSD_D16B, [CEN_CII, XR_CII]);
    result.customLevels = kositCii(profile === 'xrechnung-extension');
    if (guidelineId.startsWith(XR_CVD_PREFIX)) result.customLevels['BR-CL-13'] = 'information';
    return result;
  }
  const national = profile === 'fr-ctc' || profile === 'hr-cius';
  if (profile !== undefined && profile !== 'en16931-cius' && profile !== 'peppol' && !national) {
    const fx = FACTURX[profile];
    const schematron = { name: fx.name, artefact: `${FACTURX_RULES_DIR}/${fx.dir}/${fx.name}.xslt` };
    const xsd = `facturx/${fx.dir}/Factur-X_${fx.stem}.xsd`;
    return plan(profile, xsd, fx.cen ? [CEN_CII, schematron] : [schematron]);
  }
  notes.push(
    detected === undefined
      ? `Unrecognised guideline id '${guidelineId}' (BT-24): checked as generic EN 16931 CII only.`
      : `Guideline id '${guidelineId}' is an EN 16931 CIUS Quire has no rules for: checked as generic EN 16931 CII only.`,
  );
  return plan('unknown', XSD_D16B, [CEN_CII]);
}

/** The checks for a UBL Invoice or CreditNote. */
export function planUbl(
  creditNote: boolean,
  customizationId: string,
  forced?: InboundProfile,
  profileId = '',
): ValidationPlan {
  const declared = ublProfileOf(customizationId, profileId);
  const wanted = forced ?? declared;
  const profile: InboundProfile =
    wanted === 'xrechnung' || wanted === 'xrechnung-extension' || wanted === 'peppol' ? wanted : 'en16931';
  const schematrons = [CEN_UBL];
  let customLevels: Record<string, Severity> = {};
  if (profile === 'peppol') schematrons.push(PEPPOL_UBL);
  if (profile === 'xrechnung' || profile === 'xrechnung-extension') {
    schematrons.push(XR_UBL);
    customLevels =
      profile === 'xrechnung-extension'
        ? {
            'BR-CL-23': 'warning',
            ...kositLevels(
              ['BR-CL-21', 'BR-CL-24', 'BR-CL-10', 'BR-CL-11', 'BR-CL-25', 'BR-CL-26', 'BR-CO-16'],
              'information',
            ),
            ...kositLevels(['UBL-CR-470', 'UBL-CR-646'], 'information'),
          }
        : { 'BR-CL-23': 'warning', 'BR-CL-21': 'warning', ...(creditNote ? {} : { 'UBL-CR-646': 'error' }) };
    if (customizationId.startsWith(XR_CVD_PREFIX)) {
      customLevels['BR-CL-13'] = 'information';
      customLevels['UBL-CR-646'] = 'error';
    }
  }
  return {
    syntax: 'ubl',
    profile,
    xsd: creditNote ? XSD_UBL_CREDIT_NOTE : XSD_UBL_INVOICE,
    schematrons,
    customLevels,
    notes: [],
  };
}

/**
 * The checks for a KSeF FA(3) document: the official schema only (the Ministry of Finance publishes no
 * business rules besides it; KSeF itself checks the rest on submission).
 */
export function planKsef(): ValidationPlan {
  return { syntax: 'ksef', profile: 'fa3', xsd: XSD_KSEF_FA3, schematrons: [], customLevels: {}, notes: [] };
}

/** Quire's standard for a checked document; `pdfName` is the attachment's name when it came in a PDF. */
export function standardOf(plan: ValidationPlan, pdfName: string | undefined): Standard {
  const { syntax, profile } = plan;
  if (profile === 'hr-cius') return 'hr-cius';
  if (profile === 'fr-ctc') return frenchStandard(plan, pdfName);
  if (syntax === 'ksef') return 'ksef';
  if (profile === 'xrechnung' || profile === 'xrechnung-extension')
    return pdfName === undefined ? (syntax === 'ubl' ? 'xrechnung-ubl' : 'xrechnung-cii') : 'zugferd';
  if (syntax === 'ubl') return profile === 'peppol' ? 'peppol' : 'en16931-ubl';
  if (pdfName !== undefined) return /zugferd/i.test(pdfName) ? 'zugferd' : 'factur-x';
  // A bare CII file with EN 16931's own id is plain EN 16931 CII; the other Factur-X profiles exist only there.
  return profile === 'en16931' || profile === 'unknown' ? 'en16931-cii' : 'factur-x';
}

/** The published flag (or role) of a schematron finding as a severity (the reference validator's rule). */
export function severityOf(flag: string, report: boolean): Severity {
  const f = flag.toLowerCase();
  // A successful-report without a flag is Factur-X's "marked as not used in the given context": a warning.
  if (report && f === '') return 'warning';
  if (f.startsWith('warn')) return 'warning';
  if (f.startsWith('info')) return 'information';
  return 'error';
}

/** `*:Name[namespace-uri()='…']` and `Q{…}` steps shortened to the element names. */
export function simplifyLocation(location: string): string {
  return location
    .replace(/\*:([A-Za-z0-9_.-]+)\[namespace-uri\(\)='[^']*'\]/g, '$1')
    .replace(/Q\{[^}]*\}/g, '');
}
