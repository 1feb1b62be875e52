/**
 * France's e-invoicing reform (FNFE-MPE, XP Z12-012): what the writers need for the EXTENDED-CTC-FR profile
 * and the BR-FR rules beyond EN 16931. The rules themselves are checked before writing (validate/rules-fr.ts);
 * the official schematrons check the output.
 */

/** BR-FR-08: the billing modes ("cadres de facturation") BT-23 may take. */
export const FR_BILLING_MODES = [
  'B1',
  'S1',
  'M1',
  'B2',
  'S2',
  'M2',
  'S3',
  'B4',
  'S4',
  'M4',
  'S5',
  'S6',
  'B7',
  'S7',
  'B8',
  'S8',
  'M8',
  'B9',
  'S9',
  'M9',
] as const;

/** BR-FR-05: the notes every French invoice carries, by BT-21 subject code. */
export const FR_MANDATORY_NOTE_SUBJECTS = ['PMT', 'PMD', 'AAB'] as const;

/** BR-FR-04: the invoice type codes (BT-3) the reform accepts. */
export const FR_TYPE_CODES = new Set([
  '380',
  '389',
  '393',
  '501',
  '386',
  '500',
  '384',
  '471',
  '472',
  '473',
  '261',
  '262',
  '381',
  '396',
  '502',
  '503',
]);

/** BR-FR-16: the VAT rates (BT-119/BT-152/BT-96) French invoices may state, as numbers. */
export const FR_VAT_RATES = [
  '0',
  '10',
  '13',
  '20',
  '8.5',
  '19.6',
  '2.1',
  '5.5',
  '7',
  '20.6',
  '1.05',
  '0.9',
  '1.75',
  '9.2',
  '9.6',
];

/** ISO 6523 ICD schemes: SIREN (BT-30/BT-47 legal registration) and SIRET (BT-29/BT-46 identifier). */
export const SIREN_SCHEME = '0002';
export const SIRET_SCHEME = '0009';

/**
 * A UBL note with its subject code: UBL has no element for BT-21, so EN 16931's UBL binding (and BR-FR-05's
 * UBL rule) put it before the text as `#CODE#text`.
 */
export function ublNoteText(text: string, subject: string | undefined): string {
  return subject ? `#${subject}#${text}` : text;
}

/** The subject code and text of a UBL note written as `#CODE#text`; other notes have no code. */
export function splitUblNote(note: string): { text: string; subject_code?: string } {
  const match = /^#([A-Z]{3})#([\s\S]*)$/.exec(note);
  return match ? { text: match[2] ?? '', subject_code: match[1] } : { text: note };
}
