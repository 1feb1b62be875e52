import type { Profile } from '../model.js';

/**
 * How much of EN 16931 a CII profile carries. Factur-X 1.0 nests them: MINIMUM (totals only) ⊂
 * BASIC WL (no lines) ⊂ BASIC (lines, no contacts/item ids) ⊂ EN 16931 (= EXTENDED and XRechnung for
 * the fields Quire emits). The Factur-X XSD of each profile rejects elements of a higher level.
 */
export const CiiLevel = { Minimum: 0, BasicWl: 1, Basic: 2, Comfort: 3 } as const;
export type CiiLevel = (typeof CiiLevel)[keyof typeof CiiLevel];

export interface CiiProfileRules {
  level: CiiLevel;
  /** BT-24 specification identifier. */
  guidelineId: string;
  /** BT-23 business process fixed by the profile, XRechnung only (as KoSIT's examples). */
  businessProcess?: string;
  /** BR-DE-14: the VAT breakdown of category O states rate 0. */
  xrechnung: boolean;
}

export const PEPPOL_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
export const XRECHNUNG_3_ID = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
/** EN 16931 itself, without a CIUS (also Factur-X EN 16931's guideline). */
export const EN16931_ID = 'urn:cen.eu:en16931:2017';
/** Peppol BIS Billing 3.0 (PEPPOL-EN16931-R004). */
export const PEPPOL_BIS_3_ID = `${EN16931_ID}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`;
/**
 * France's EXTENDED-CTC-FR (FNFE-MPE): no French rule file checks BT-24, so this is the value in common use
 * in FNFE-MPE's documents and the validators that recognise the profile.
 */
export const EXTENDED_CTC_FR_ID = `${EN16931_ID}#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr`;

const RULES: Record<Exclude<Profile, 'fa3'>, CiiProfileRules> = {
  minimum: { level: CiiLevel.Minimum, guidelineId: 'urn:factur-x.eu:1p0:minimum', xrechnung: false },
  'basic-wl': { level: CiiLevel.BasicWl, guidelineId: 'urn:factur-x.eu:1p0:basicwl', xrechnung: false },
  basic: {
    level: CiiLevel.Basic,
    guidelineId: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
    xrechnung: false,
  },
  en16931: { level: CiiLevel.Comfort, guidelineId: EN16931_ID, xrechnung: false },
  extended: {
    level: CiiLevel.Comfort,
    guidelineId: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
    xrechnung: false,
  },
  xrechnung: {
    level: CiiLevel.Comfort,
    guidelineId: XRECHNUNG_3_ID,
    businessProcess: PEPPOL_BILLING_PROCESS,
    xrechnung: true,
  },
  'extended-ctc-fr': { level: CiiLevel.Comfort, guidelineId: EXTENDED_CTC_FR_ID, xrechnung: false },
};

export function ciiRules(profile: Profile): CiiProfileRules {
  // KSeF FA(3) is its own structure (src/einvoice/ksef/), never CII.
  if (profile === 'fa3') throw new Error('FA(3) has no CII profile');
  return RULES[profile];
}
