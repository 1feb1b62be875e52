/**
 * Normalized e-invoice model (SPEC "E-invoices"): what `validateEInvoice` hands to the XML writers,
 * the PDF/A embedding and the invoice template. Everything here is already validated, trimmed and
 * defaulted; amounts are exact `Decimal`s (never binary floats) rounded as the spec states, so the
 * XML and the readable PDF print the same numbers (`.toFixed(2)` for amounts).
 */
import type { Decimal } from 'decimal.js';

export const STANDARDS = [
  'factur-x',
  'zugferd',
  'xrechnung-cii',
  'xrechnung-ubl',
  // Extensions: Peppol BIS Billing 3.0 (UBL) and plain EN 16931 without a CIUS.
  'peppol',
  'en16931-ubl',
  'en16931-cii',
  // Extension: Croatia's HR-CIUS 2025 (Fiscalization 2.0), UBL.
  'hr-cius',
  // Extension: Poland's national structure FA(3) for KSeF (not EN 16931), src/einvoice/ksef/.
  'ksef',
] as const;
export type Standard = (typeof STANDARDS)[number];

/** Standards whose result is the XML itself (nothing is rendered), and the syntax each one writes. */
export const XML_STANDARDS: Readonly<Partial<Record<Standard, 'cii' | 'ubl' | 'ksef'>>> = {
  'xrechnung-cii': 'cii',
  'xrechnung-ubl': 'ubl',
  peppol: 'ubl',
  'en16931-ubl': 'ubl',
  'en16931-cii': 'cii',
  ksef: 'ksef',
  'hr-cius': 'ubl',
};

export const PROFILES = [
  'minimum',
  'basic-wl',
  'basic',
  'en16931',
  'extended',
  'xrechnung',
  // Extension: France's FNFE-MPE EXTENDED-CTC-FR (the 2026 reform), with the BR-FR rules.
  'extended-ctc-fr',
  // Extension: KSeF's FA(3) structure.
  'fa3',
] as const;
export type Profile = (typeof PROFILES)[number];

/** Which profiles each standard offers (SPEC "E-invoices", field `profile`). */
export const PROFILES_BY_STANDARD: Readonly<Record<Standard, readonly Profile[]>> = {
  ksef: ['fa3'],
  'factur-x': ['minimum', 'basic-wl', 'basic', 'en16931', 'extended', 'extended-ctc-fr'],
  zugferd: ['minimum', 'basic-wl', 'basic', 'en16931', 'extended', 'xrechnung'],
  'xrechnung-cii': ['xrechnung'],
  'xrechnung-ubl': ['xrechnung'],
  // Peppol BIS is a CIUS of EN 16931 (it restricts, never extends): its semantic level is en16931.
  peppol: ['en16931'],
  'en16931-ubl': ['en16931', 'extended-ctc-fr'],
  'en16931-cii': ['en16931', 'extended-ctc-fr'],
  'hr-cius': ['en16931'],
};

export const DEFAULT_PROFILE: Readonly<Record<Standard, Profile>> = {
  ksef: 'fa3',
  'factur-x': 'en16931',
  zugferd: 'en16931',
  'xrechnung-cii': 'xrechnung',
  'xrechnung-ubl': 'xrechnung',
  peppol: 'en16931',
  'en16931-ubl': 'en16931',
  'en16931-cii': 'en16931',
  'hr-cius': 'en16931',
};

/** UNTDID 5305 VAT category codes the spec accepts. */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

/**
 * Extension `invoice.ksef`: FA(3) fields EN 16931 has no term for. The flags are Adnotacje markers whose
 * default (absent) is "no".
 */
export interface KsefInvoiceFields {
  /** PLN per unit of `currency` (KursWaluty); required when the currency is not PLN. */
  exchange_rate?: Decimal;
  /** P_1M, place of issue. */
  place_of_issue?: string;
  /** P_16 metoda kasowa. */
  cash_accounting?: boolean;
  /** P_17 samofakturowanie. */
  self_billing?: boolean;
  /** P_18A mechanizm podzielonej płatności. */
  split_payment?: boolean;
  /** KOR: the corrected invoice's KSeF number (NrKSeFFaKorygowanej); absent = issued outside KSeF. */
  corrected_ksef_number?: string;
  /** KOR: PrzyczynaKorekty. */
  correction_reason?: string;
  /** KOR: TypKorekty 1, 2 or 3 (when the correction takes effect). */
  correction_type?: 1 | 2 | 3;
}

/** Dates are kept as validated `YYYY-MM-DD` strings. */
export type IsoDate = string;

export interface Address {
  country_code: string;
  line1?: string;
  line2?: string;
  line3?: string;
  city?: string;
  postal_code?: string;
  subdivision?: string;
}

export interface ElectronicAddress {
  value: string;
  /** EAS code; `EM` when not sent. */
  scheme: string;
}

export interface Contact {
  name?: string;
  phone?: string;
  email?: string;
}

export interface Party {
  name: string;
  address: Address;
  trading_name?: string;
  vat_id?: string;
  id?: string;
  id_scheme?: string;
  legal_registration_id?: string;
  legal_registration_scheme?: string;
  electronic_address?: ElectronicAddress;
  contact?: Contact;
  /** Seller only (BT-32). */
  tax_number?: string;
  /** Seller only (BT-33). */
  legal_info?: string;
}

export interface Delivery {
  name?: string;
  address?: Address;
}

/** Billing period (BG-14): both ends present. */
export interface Period {
  start: IsoDate;
  end: IsoDate;
}

/** Line period (BG-26): at least one end present (BR-CO-20). */
export interface LinePeriod {
  start?: IsoDate;
  end?: IsoDate;
}

export interface PrecedingInvoice {
  number: string;
  issue_date?: IsoDate;
}

export interface Vat {
  category: VatCategory;
  /** Percent; `null` for category O, whose rate is left out (EN 16931 BR-O-05). */
  rate: Decimal | null;
}

/** Line-level allowance (BG-27) or charge (BG-28) with its amount computed. */
export interface LineAllowanceCharge {
  /** Final amount, 2 decimals: sent, or percent × base ÷ 100 rounded half away from zero. */
  amount: Decimal;
  percent?: Decimal;
  /** Base of the percentage: the line amount (quantity × price ÷ base quantity, in cents). */
  base_amount?: Decimal;
  reason?: string;
  /** UNTDID 5189 (allowances) or 7161 (charges). */
  reason_code?: string;
}

/** Document-level allowance (BG-20) or charge (BG-21) with its amount and VAT resolved. */
export interface DocAllowanceCharge {
  amount: Decimal;
  percent?: Decimal;
  /** Sent base, or the sum of line net amounts when a percent is given. */
  base_amount?: Decimal;
  reason?: string;
  reason_code?: string;
  /** Sent VAT, or the lines' single category and rate. */
  vat: Vat;
}

export interface Line {
  /** BT-126; default the 1-based position as a string. */
  id: string;
  name: string;
  quantity: Decimal;
  /** Net price per `price_base_quantity` units (BT-146). */
  unit_price: Decimal;
  /** UN/ECE Rec. 20, default `C62`. */
  unit_code: string;
  /** BT-149, default 1. */
  price_base_quantity: Decimal;
  vat: Vat;
  description?: string;
  note?: string;
  seller_item_id?: string;
  buyer_item_id?: string;
  standard_item_id?: string;
  standard_item_scheme?: string;
  order_line_reference?: string;
  /** BT-158 item classification (e.g. the Croatian KPD, scheme `CG`) with its UNTDID 7143 scheme. */
  classification_code?: string;
  classification_scheme?: string;
  period?: LinePeriod;
  allowances: LineAllowanceCharge[];
  charges: LineAllowanceCharge[];
  /** quantity × unit_price ÷ price_base_quantity, rounded to cents (before line allowances/charges). */
  gross_amount: Decimal;
  /** BT-131: gross_amount − allowances + charges. */
  net_amount: Decimal;
}

export interface Payment {
  /** UNTDID 4461; default 58 with an iban, 59 with a debited_iban, else 1. */
  means_code: string;
  means_text?: string;
  /** Normalized: blanks removed, upper case. */
  iban?: string;
  bic?: string;
  account_name?: string;
  /** BT-83, up to 140 chars; default the invoice number. */
  reference: string;
  /** Inner line breaks kept (XRechnung Skonto syntax, BR-DE-18); a final line break is kept too. */
  terms?: string;
  due_date?: IsoDate;
  mandate_reference?: string;
  creditor_id?: string;
  debited_iban?: string;
}

export interface TaxExemption {
  reason?: string;
  /** VATEX code, e.g. `VATEX-EU-AE`. */
  code?: string;
}

export interface Invoice {
  number: string;
  issue_date: IsoDate;
  currency: string;
  /** UNTDID 1001, default `380`. */
  type_code: string;
  buyer_reference?: string;
  purchase_order_reference?: string;
  sales_order_reference?: string;
  contract_reference?: string;
  project_reference?: string;
  preceding_invoice?: PrecedingInvoice;
  delivery_date?: IsoDate;
  billing_period?: Period;
  /** Extension: what only Poland's KSeF FA(3) output carries (src/einvoice/ksef/fields.ts). */
  ksef?: KsefInvoiceFields;
  /** BG-1 note texts (BT-22). */
  notes: string[];
  /** BT-21 subject code of each note (same index as `notes`; undefined where a note has none). */
  note_subjects?: (string | undefined)[];
  /** BT-23 business process: the French billing mode (S1, B1, M1…) or the Croatian process (P1–P12). */
  billing_mode?: string;
  /** HR-BT-2 issue time `HH:MM:SS` (HR-CIUS). */
  issue_time?: string;
  /** HR-BT-4/HR-BT-5: the operator who issued the invoice and their OIB (HR-CIUS). */
  operator?: { name: string; id: string };
  seller: Party;
  buyer: Party;
  delivery?: Delivery;
  payment?: Payment;
  lines: Line[];
  allowances: DocAllowanceCharge[];
  charges: DocAllowanceCharge[];
  /** 0 when not sent. */
  prepaid_amount: Decimal;
  /** 0 when not sent. */
  rounding_amount: Decimal;
  /** Exemption text/code for every exempt-like category the invoice uses (E, AE, K, G, O), defaults applied. */
  tax_exemptions: Partial<Record<VatCategory, TaxExemption>>;
}

/** Document totals (BG-22), all 2 decimals. */
export interface InvoiceTotals {
  /** BT-106: sum of line net amounts. */
  line_total: Decimal;
  /** BT-107 */
  allowance_total: Decimal;
  /** BT-108 */
  charge_total: Decimal;
  /** BT-109: line_total − allowance_total + charge_total. */
  tax_basis_total: Decimal;
  /** BT-110: sum of the breakdown's tax amounts. */
  tax_total: Decimal;
  /** BT-112: tax_basis_total + tax_total. */
  grand_total: Decimal;
  /** BT-113 */
  prepaid: Decimal;
  /** BT-114 */
  rounding: Decimal;
  /** BT-115: grand_total − prepaid + rounding. */
  due_payable: Decimal;
}
export const TOTAL_FIELDS = [
  'line_total',
  'allowance_total',
  'charge_total',
  'tax_basis_total',
  'tax_total',
  'grand_total',
  'prepaid',
  'rounding',
  'due_payable',
] as const satisfies readonly (keyof InvoiceTotals)[];

/** One VAT breakdown group (BG-23): per category and rate. */
export interface VatBreakdownEntry {
  category: VatCategory;
  /** `null` for O (XRechnung writers emit 0 there, BR-DE-14). */
  rate: Decimal | null;
  /** BT-116 */
  taxable_amount: Decimal;
  /** BT-117: taxable × rate ÷ 100, half away from zero. */
  tax_amount: Decimal;
  /** BT-120 / BT-121, only for E, AE, K, G, O. */
  exemption_reason?: string;
  exemption_code?: string;
}

export interface PreparedEInvoice {
  standard: Standard;
  profile: Profile;
  invoice: Invoice;
  totals: InvoiceTotals;
  /** Ordered by first use in the lines (then document allowances/charges). */
  vatBreakdown: VatBreakdownEntry[];
  /** Same array as `invoice.lines`. */
  lines: Line[];
  /** Same array as `invoice.allowances`. */
  docAllowances: DocAllowanceCharge[];
  /** Same array as `invoice.charges`. */
  docCharges: DocAllowanceCharge[];
}

/**
 * Each profile's Factur-X conformance level: the name in the XMP (fx:ConformanceLevel), in the label, and
 * what a received PDF's XMP must say for the profile its XML declares.
 */
export const FACTURX_CONFORMANCE_LEVELS = {
  minimum: 'MINIMUM',
  'basic-wl': 'BASIC WL',
  basic: 'BASIC',
  en16931: 'EN 16931',
  extended: 'EXTENDED',
  xrechnung: 'XRECHNUNG',
  // EXTENDED-CTC-FR is a Factur-X EXTENDED document in the PDF's XMP.
  'extended-ctc-fr': 'EXTENDED',
  // FA(3) is never embedded in a Factur-X PDF: the name is only the label's.
  fa3: 'FA(3)',
} as const satisfies Record<Profile, string>;

/** Human label for the template's `e_invoice.label`, e.g. "Factur-X EN 16931". */
export function eInvoiceLabel(standard: Standard, profile: Profile): string {
  const std = {
    'factur-x': 'Factur-X',
    zugferd: 'ZUGFeRD',
    'xrechnung-cii': 'XRechnung',
    'xrechnung-ubl': 'XRechnung',
    peppol: 'Peppol BIS Billing 3.0',
    'en16931-ubl': 'EN 16931',
    'en16931-cii': 'EN 16931',
    'hr-cius': 'HR-CIUS',
  };
  if (standard === 'ksef') return 'KSeF FA(3)';
  if (standard === 'xrechnung-cii') return 'XRechnung 3.0 (CII)';
  if (standard === 'xrechnung-ubl') return 'XRechnung 3.0 (UBL)';
  if (standard === 'peppol') return std.peppol;
  if (standard === 'hr-cius') return 'HR-CIUS 2025 (UBL)';
  if (profile === 'extended-ctc-fr') return frenchLabel(standard);
  if (standard === 'en16931-ubl') return 'EN 16931 (UBL)';
  if (standard === 'en16931-cii') return 'EN 16931 (CII)';
  return `${std[standard]} ${FACTURX_CONFORMANCE_LEVELS[profile]}`;
}

function frenchLabel(standard: Standard): string {
  if (standard === 'en16931-ubl') return 'EXTENDED-CTC-FR (UBL)';
  if (standard === 'en16931-cii') return 'EXTENDED-CTC-FR (CII)';
  return 'Factur-X EXTENDED-CTC-FR';
}
