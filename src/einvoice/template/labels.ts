/** German / English labels for the codes the readable invoice shows (bilingual built-in template). */

const TYPE_LABELS: Record<string, string> = {
  '326': 'Teilrechnung / Partial invoice',
  '380': 'Rechnung / Invoice',
  '381': 'Gutschrift / Credit note',
  '384': 'Rechnungskorrektur / Corrected invoice',
  '389': 'Gutschrift (Selbstfakturierung) / Self-billed invoice',
  '875': 'Teilrechnung Bau / Partial construction invoice',
  '876': 'Teilschlussrechnung Bau / Partial final construction invoice',
  '877': 'Schlussrechnung Bau / Final construction invoice',
};

const UNIT_LABELS: Record<string, string> = {
  C62: 'Stk. / pcs',
  H87: 'Stk. / pcs',
  HUR: 'Std. / h',
  DAY: 'Tag / day',
  KGM: 'kg',
  MTR: 'm',
  LS: 'pauschal / lump sum',
};

const VAT_LABELS: Record<string, string> = {
  S: 'Normalsatz / Standard rate',
  Z: 'Nullsatz / Zero rated',
  E: 'Steuerbefreit / Exempt',
  AE: 'Steuerschuldnerschaft des Leistungsempfängers / Reverse charge',
  K: 'Innergemeinschaftliche Lieferung / Intra-community supply',
  G: 'Ausfuhrlieferung / Export outside the EU',
  O: 'Nicht steuerbar / Not subject to VAT',
  L: 'IGIC (Kanarische Inseln / Canary Islands)',
  M: 'IPSI (Ceuta und Melilla)',
};

const MEANS_LABELS: Record<string, string> = {
  '1': 'Nicht festgelegt / Not defined',
  '10': 'Bar / Cash',
  '20': 'Scheck / Cheque',
  '30': 'Überweisung / Credit transfer',
  '31': 'Überweisung / Debit transfer',
  '42': 'Zahlung auf Bankkonto / Payment to bank account',
  '48': 'Karte / Bank card',
  '49': 'Lastschrift / Direct debit',
  '54': 'Kreditkarte / Credit card',
  '55': 'Debitkarte / Debit card',
  '57': 'Dauerauftrag / Standing agreement',
  '58': 'SEPA-Überweisung / SEPA credit transfer',
  '59': 'SEPA-Lastschrift / SEPA direct debit',
  '97': 'Verrechnung / Clearing between partners',
  ZZZ: 'Vereinbart / Mutually defined',
};

export function typeLabel(code: string): string {
  return TYPE_LABELS[code] ?? `Rechnung / Invoice (${code})`;
}

export function unitLabel(code: string): string {
  return UNIT_LABELS[code] ?? code;
}

export function vatCategoryLabel(category: string): string {
  return VAT_LABELS[category] ?? category;
}

export function meansLabel(code: string): string {
  return MEANS_LABELS[code] ?? code;
}
