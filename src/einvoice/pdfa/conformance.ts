import { AFRelationship, type FacturXConformanceLevel } from '@cantoo/pdf-lib';
import { FACTURX_CONFORMANCE_LEVELS } from '../model.js';

/** Profiles a Factur-X/ZUGFeRD PDF can carry (SPEC "E-invoices": standard `factur-x`/`zugferd`). */
export type PdfProfile =
  | 'minimum'
  | 'basic-wl'
  | 'basic'
  | 'en16931'
  | 'extended'
  | 'xrechnung'
  | 'extended-ctc-fr';

export interface FacturXXmp {
  conformanceLevel: FacturXConformanceLevel;
  /** fx:Version: the Factur-X schema version, or the XRechnung version for the XRECHNUNG profile. */
  version: string;
  afRelationship: AFRelationship;
}

/**
 * XMP values and attachment relationship of one profile. MINIMUM and BASIC WL are not full invoices
 * under EN 16931, so Factur-X 1.0 §7 makes their XML `Data`; every other profile is an `Alternative`
 * representation of the readable PDF.
 */
export function facturXXmp(profile: PdfProfile): FacturXXmp {
  const dataOnly = profile === 'minimum' || profile === 'basic-wl';
  return {
    conformanceLevel: FACTURX_CONFORMANCE_LEVELS[profile],
    version: profile === 'xrechnung' ? '3.0' : '1.0',
    afRelationship: dataOnly ? AFRelationship.Data : AFRelationship.Alternative,
  };
}
