import type { Standard } from '../einvoice/index.js';
import { EXTENDED_CTC_FR_ID, FACTURX_CONFORMANCE_LEVELS, FR_BILLING_MODES } from '../einvoice/index.js';
import type { Schematron, ValidationPlan } from './plan.js';

/**
 * The national profiles of the 2026 mandates on top of the EN 16931 plans (the reference validator's choice,
 * tools/einvoice-validate/README.md "National profiles"):
 * - France (`fr-ctc`): the document's own profile, then FNFE-MPE's BR-FR rules ("Flux 2", 1.4.0.03). An
 *   EXTENDED-CTC-FR document is checked with FNFE-MPE's EXTENDED-CTC-FR rules instead of CEN's (CII against
 *   the UN/CEFACT D22B schema FNFE-MPE ships). No French rule file checks BT-24, so a document is French
 *   when BT-24 is EXTENDED-CTC-FR's identifier or BT-23 holds a French billing mode (BR-FR-08) on a profile
 *   the reform accepts.
 * - Croatia (`hr-cius`): CEN EN 16931 UBL plus the Tax Administration's HR-CIUS rules (1.0.3), for a UBL
 *   document whose CustomizationID is HR-CIUS's.
 * Pure: no I/O.
 */

export const BR_FR_CII: Schematron = {
  name: 'BR-FR-CII',
  artefact: 'fr-ctc/CII/BR-FR-Flux2-Schematron-CII.xslt',
};
export const BR_FR_UBL: Schematron = {
  name: 'BR-FR-UBL',
  artefact: 'fr-ctc/UBL/BR-FR-Flux2-Schematron-UBL.xslt',
};
const EXT_FR_CII: Schematron = {
  name: 'EXTENDED-CTC-FR-CII',
  artefact: 'fr-ctc/CII/EXTENDED-CTC-FR-CII.xslt',
};
const EXT_FR_UBL: Schematron = {
  name: 'EXTENDED-CTC-FR-UBL',
  artefact: 'fr-ctc/UBL/EXTENDED-CTC-FR-UBL.xslt',
};
export const HR_CIUS_UBL: Schematron = {
  name: 'HR-CIUS-EXT-UBL',
  artefact: 'hr-cius/HR-CIUS-EXT-EN16931-UBL.xslt',
};
const XSD_D22B = 'fr-ctc/xsd-cii-d22b/CrossIndustryInvoice_100pD22B.xsd';
const CEN_NAMES = new Set(['EN16931-CII', 'EN16931-UBL']);

/** The profiles under a French document that the reform accepts (EN 16931, Factur-X BASIC WL/EN 16931/EXTENDED). */
const FR_BASES: ReadonlySet<string> = new Set([
  'en16931',
  'basic-wl',
  'extended',
  'unknown',
  'extended-ctc-fr',
]);

export function isExtendedCtcFr(guidelineId: string): boolean {
  return guidelineId.startsWith(EXTENDED_CTC_FR_ID);
}

/** HR-CIUS 2025 documents, whatever version of the CIUS and extension follows (HR-BR-5 checks the exact value). */
const HR_CIUS_PREFIX = 'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025';

export function isHrCius(customizationId: string): boolean {
  return customizationId.startsWith(HR_CIUS_PREFIX);
}

/** Whether a document is French: EXTENDED-CTC-FR, or a French billing mode on a profile the reform accepts. */
export function isFrench(
  guidelineId: string,
  businessProcess: string,
  base: ValidationPlan['profile'],
): boolean {
  if (isExtendedCtcFr(guidelineId)) return true;
  return (FR_BILLING_MODES as readonly string[]).includes(businessProcess) && FR_BASES.has(base);
}

/**
 * The French plan over a document's own plan: BR-FR after its rules; EXTENDED-CTC-FR's rules (and, in CII,
 * the D22B schema) in place of CEN's for an EXTENDED-CTC-FR document. A Factur-X PDF's XMP must name the
 * base profile's level (EXTENDED for EXTENDED-CTC-FR).
 */
export function frenchPlan(base: ValidationPlan, extendedCtcFr: boolean): ValidationPlan {
  const cii = base.syntax === 'cii';
  const own = extendedCtcFr ? [cii ? EXT_FR_CII : EXT_FR_UBL] : base.schematrons;
  const baseProfile = extendedCtcFr ? 'extended-ctc-fr' : base.profile;
  const notes = [...base.notes];
  if (!FR_BASES.has(baseProfile))
    notes.push(
      `Not a profile of the French reform (${baseProfile}; it accepts EN 16931, EXTENDED-CTC-FR and Factur-X BASIC WL, EN 16931, EXTENDED): checked as ${baseProfile} with the BR-FR rules.`,
    );
  return {
    ...base,
    profile: 'fr-ctc',
    base: baseProfile,
    xsd: extendedCtcFr && cii ? XSD_D22B : base.xsd,
    schematrons: [...own, cii ? BR_FR_CII : BR_FR_UBL],
    conformanceLevel: baseProfile === 'unknown' ? undefined : FACTURX_LEVEL_OF[baseProfile],
    notes,
  };
}

const FACTURX_LEVEL_OF: Readonly<Record<string, string>> = FACTURX_CONFORMANCE_LEVELS;

/** Croatia: the EN 16931 UBL plan plus HR-CIUS. */
export function croatianPlan(base: ValidationPlan): ValidationPlan {
  return {
    ...base,
    profile: 'hr-cius',
    schematrons: [...base.schematrons.filter((s) => CEN_NAMES.has(s.name)), HR_CIUS_UBL],
  };
}

/** Quire's standard for a French document: a Factur-X PDF, EN 16931 UBL, or CII (a bare Factur-X profile's XML is factur-x). */
export function frenchStandard(plan: ValidationPlan, pdfName: string | undefined): Standard {
  if (pdfName !== undefined) return 'factur-x';
  if (plan.syntax === 'ubl') return 'en16931-ubl';
  const base = plan.base ?? 'unknown';
  return base === 'en16931' || base === 'unknown' || base === 'extended-ctc-fr' ? 'en16931-cii' : 'factur-x';
}

/** What decides a national plan: the document's BT-24 and BT-23, and a profile the caller asked for. */
export interface Declared {
  guidelineId: string;
  businessProcess: string;
  forced: ValidationPlan['profile'] | undefined;
}

/** The base profile a national request leaves to the document (fr-ctc and hr-cius are planned over it). */
export function baseForced<T extends string>(forced: T | undefined): T | undefined {
  return forced === 'fr-ctc' || forced === 'hr-cius' ? undefined : forced;
}

/** The plan with the national rules the document declares or the caller asked for; otherwise `plan` itself. */
export function withNationalRules(plan: ValidationPlan, declared: Declared): ValidationPlan {
  const { guidelineId, businessProcess, forced } = declared;
  if (plan.syntax === 'ubl' && (forced === 'hr-cius' || (forced === undefined && isHrCius(guidelineId))))
    return croatianPlan(plan);
  const french = forced === undefined && isFrench(guidelineId, businessProcess, plan.profile);
  if (forced === 'fr-ctc' || french) return frenchPlan(plan, isExtendedCtcFr(guidelineId));
  return plan;
}
