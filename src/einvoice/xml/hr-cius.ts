import type { Invoice, Vat } from '../model.js';
import type { TaxCategoryExtra } from './ubl-lines.js';
import { child, leaf, type Node } from './xml-text.js';

/**
 * Croatia's HR-CIUS 2025 (Fiscalization 2.0, Porezna uprava's HR-CIUS/EXT-HR 1.0.3): the pieces a UBL
 * invoice adds to EN 16931 — its specification identifier (HR-BR-5), the process type in BT-23
 * (HR-BR-34, P1–P12), the operator in cac:SellerContact (HR-BT-4/HR-BT-5), and the Croatian VAT
 * category names (HR-TB-2).
 */
export const HR_CIUS_ID =
  'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0';

/** HR-BR-34's default process: P1, invoicing deliveries of goods and services against purchase orders. */
export const HR_DEFAULT_PROCESS = 'P1';

/** The KPD (Klasifikacija proizvoda po djelatnostima) scheme every HR-CIUS line classification uses (HR-BR-25). */
export const HR_KPD_SCHEME = 'CG';

/** HR-BT-4 operator name and HR-BT-5 operator OIB, after cac:Party in cac:AccountingSupplierParty. */
export function hrSellerContact(supplier: Node, invoice: Invoice): void {
  if (!invoice.operator) return;
  const contact = child(supplier, 'cac:SellerContact');
  leaf(contact, 'cbc:ID', invoice.operator.id);
  leaf(contact, 'cbc:Name', invoice.operator.name);
}

/** Standard rates that have a name of their own in HR-TB-2; any other S rate stays unnamed. */
const STANDARD_RATE_NAMES: Readonly<Record<string, string>> = {
  '25': 'HR:PDV25',
  '13': 'HR:PDV13',
  '5': 'HR:PDV5',
};

/** HR-TB-2 name of a VAT category and rate (HR-BR-CL-1); HR-BR-16 requires one for E and O. */
export function hrTaxCategoryName(vat: Vat): string | undefined {
  if (vat.category === 'S') return vat.rate ? STANDARD_RATE_NAMES[vat.rate.toString()] : undefined;
  if (vat.category === 'L' || vat.category === 'M') return undefined;
  return `HR:${vat.category}`;
}

/**
 * An HR-CIUS line's tax category: its HR-TB-2 name and, for E and O, the exemption the invoice states
 * (HR-BR-36 wants it on the line too, not only in the VAT breakdown).
 */
export function hrLineTaxCategory(vat: Vat, invoice: Invoice): TaxCategoryExtra {
  const exemption =
    vat.category === 'E' || vat.category === 'O' ? invoice.tax_exemptions[vat.category] : undefined;
  return { name: hrTaxCategoryName(vat), code: exemption?.code, reason: exemption?.reason };
}

/** ISO 7064 MOD 11,10 check digit of an OIB (the 11-digit Croatian personal identification number). */
export function isValidOib(oib: string): boolean {
  if (!/^\d{11}$/.test(oib)) return false;
  let carry = 10;
  for (let i = 0; i < 10; i++) {
    let sum = (Number(oib[i]) + carry) % 10;
    if (sum === 0) sum = 10;
    carry = (sum * 2) % 11;
  }
  return (11 - carry) % 10 === Number(oib[10]);
}
