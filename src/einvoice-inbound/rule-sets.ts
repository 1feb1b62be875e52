/**
 * The official rule sets received e-invoices are checked with, by name and release: what
 * POST /v1/e-invoices/validate reports as `rules` and GET /version lists. Each entry names the artefacts
 * it owns (paths under tools/einvoice-validate/artefacts/), so the rule sets a check applied follow from
 * the artefacts its plan ran. A new rule set is one more entry here, one more line in STYLESHEETS
 * (scripts/compile-einvoice-rules.mjs) for each stylesheet, and its Schematron constant in plan.ts; a unit
 * test (rule-sets.test.ts) says when the two lists disagree. Moving to a new release: docs/e-invoices.md.
 */

interface RuleSetEntry {
  /** What the answer calls it: the publisher's name of the rule set. */
  name: string;
  /** The release, as its publisher numbers it. */
  version: string;
  /** Schematron stylesheets (compiled to SEF by scripts/compile-einvoice-rules.mjs). */
  stylesheets: readonly string[];
  /** XML schemas (entry files). */
  schemas: readonly string[];
}

export const RULE_SETS: readonly RuleSetEntry[] = [
  {
    name: 'KSeF FA(3) schema (Ministry of Finance, Poland)',
    version: '1-0E',
    stylesheets: [],
    schemas: ['ksef/FA3/schemat_FA(3)_v1-0E.xsd'],
  },
  {
    name: 'OASIS UBL schema',
    version: '2.1',
    stylesheets: [],
    schemas: ['xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd', 'xsd/ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd'],
  },
  {
    name: 'UN/CEFACT Cross Industry Invoice schema (uncoupled)',
    version: 'D16B',
    stylesheets: [],
    schemas: ['xsd/cii-d16b/CrossIndustryInvoice_100pD16B.xsd'],
  },
  {
    name: 'CEN EN 16931 validation artefacts',
    version: '1.3.16',
    stylesheets: ['en16931/EN16931-CII-validation.xslt', 'en16931/EN16931-UBL-validation.xslt'],
    schemas: [],
  },
  {
    name: 'KoSIT XRechnung schematron',
    version: '2.5.0',
    stylesheets: ['xrechnung/XRechnung-CII-validation.xsl', 'xrechnung/XRechnung-UBL-validation.xsl'],
    schemas: [],
  },
  {
    name: 'OpenPeppol BIS Billing 3.0',
    version: '3.0.21',
    stylesheets: ['peppol/3.0.21/PEPPOL-EN16931-UBL.xslt'],
    schemas: [],
  },
  {
    name: 'Factur-X / ZUGFeRD',
    version: '1.09.2',
    stylesheets: [
      'facturx-1.09.2/minimum/FACTUR-X_MINIMUM.xslt',
      'facturx-1.09.2/basicwl/FACTUR-X_BASIC-WL.xslt',
      'facturx-1.09.2/basic/FACTUR-X_BASIC.xslt',
      'facturx-1.09.2/en16931/FACTUR-X_EN16931.xslt',
      'facturx-1.09.2/extended/FACTUR-X_EXTENDED.xslt',
    ],
    // The Factur-X XSDs keep their 1.09 file names; their content is that of 1.09.2 (tools/einvoice-validate/SOURCES.md).
    schemas: [
      'facturx/minimum/Factur-X_MINIMUM.xsd',
      'facturx/basicwl/Factur-X_BASICWL.xsd',
      'facturx/basic/Factur-X_BASIC.xsd',
      'facturx/en16931/Factur-X_EN16931.xsd',
      'facturx/extended/Factur-X_EXTENDED.xsd',
    ],
  },
  {
    name: 'FNFE-MPE French CTC business rules (BR-FR, Flux 2)',
    version: '1.4.0.03',
    stylesheets: ['fr-ctc/CII/BR-FR-Flux2-Schematron-CII.xslt', 'fr-ctc/UBL/BR-FR-Flux2-Schematron-UBL.xslt'],
    schemas: [],
  },
  {
    name: 'FNFE-MPE EXTENDED-CTC-FR',
    version: '1.4.0.03',
    stylesheets: ['fr-ctc/CII/EXTENDED-CTC-FR-CII.xslt', 'fr-ctc/UBL/EXTENDED-CTC-FR-UBL.xslt'],
    // UN/CEFACT CII D22B (uncoupled), the schema FNFE-MPE ships for EXTENDED-CTC-FR CII.
    schemas: ['fr-ctc/xsd-cii-d22b/CrossIndustryInvoice_100pD22B.xsd'],
  },
  {
    name: 'HR-CIUS / EXT-HR 2025 (Porezna uprava, Croatia)',
    version: '1.0.3',
    stylesheets: ['hr-cius/HR-CIUS-EXT-EN16931-UBL.xslt'],
    schemas: [],
  },
];

/** A rule set as the API names it. */
export interface AppliedRuleSet {
  name: string;
  version: string;
}

/** Every rule set Quire checks with (GET /version). */
export function ruleSetList(): AppliedRuleSet[] {
  return RULE_SETS.map(({ name, version }) => ({ name, version }));
}

/** The rule sets whose artefacts a check ran, in RULE_SETS order. */
export function ruleSetsOf(artefacts: readonly string[]): AppliedRuleSet[] {
  const used = new Set(artefacts);
  return RULE_SETS.filter((set) => [...set.stylesheets, ...set.schemas].some((a) => used.has(a))).map(
    ({ name, version }) => ({ name, version }),
  );
}
