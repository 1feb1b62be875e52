import { AFRelationship, type FacturXConformanceLevel } from '@cantoo/pdf-lib';

/** Profiles a Factur-X/ZUGFeRD PDF can carry (SPEC "E-invoices": standard `factur-x`/`zugferd`). */
export type PdfProfile = 'minimum' | 'basic-wl' | 'basic' | 'en16931' | 'extended' | 'xrechnung';

export interface FacturXXmp {
  conformanceLevel: FacturXConformanceLevel;
  /** fx:Version: the Factur-X schema version, or the XRechnung version for the XRECHNUNG profile. */
  version: string;
  afRelationship: AFRelationship;
}

const LEVELS: Record<PdfProfile, FacturXConformanceLevel> = {
  minimum: 'MINIMUM',
  'basic-wl': 'BASIC WL',
  basic: 'BASIC',
  en16931: 'EN 16931',
  extended: 'EXTENDED',
  xrechnung: 'XRECHNUNG',
};

/**
 * XMP values and attachment relationship of one profile. MINIMUM and BASIC WL are not full invoices
 * under EN 16931, so Factur-X 1.0 §7 makes their XML `Data`; every other profile is an `Alternative`
 * representation of the readable PDF.
 */
export function facturXXmp(profile: PdfProfile): FacturXXmp {
  const dataOnly = profile === 'minimum' || profile === 'basic-wl';
  return {
    conformanceLevel: LEVELS[profile],
    version: profile === 'xrechnung' ? '3.0' : '1.0',
    afRelationship: dataOnly ? AFRelationship.Data : AFRelationship.Alternative,
  };
}
