import { CREDIT_NOTE_TYPE_CODES } from '../codes.js';
import type { Invoice, InvoiceTotals, Party } from '../model.js';
import { isSeOrg, mod11 } from './peppol-identifiers.js';

/**
 * OpenPeppol's national rules for sellers in Norway, Denmark, Italy, Sweden and Iceland (PEPPOL-EN16931-UBL.sch
 * 3.0.21, the `fatal` ones a Quire invoice can break). The Dutch and German ones are in rules-peppol.ts; the
 * Greek ones (GR-R-*) need fields the model does not have (MARK number, invoice URL) and are not pre-checked.
 */

type Add = (path: string, message: string) => void;

export function checkPeppolNational(invoice: Invoice, totals: InvoiceTotals, add: Add): void {
  const seller = invoice.seller.address.country_code;
  if (invoice.seller.vat_id?.startsWith('NO')) checkNorway(invoice, add);
  if (seller === 'DK') checkDenmark(invoice, totals, add);
  if (supplierCountry(invoice.seller) === 'IT') checkItaly(invoice, add);
  if (seller === 'SE') checkSweden(invoice, add);
  if (seller === 'IS') checkIceland(invoice, add);
}

/** OpenPeppol's `$supplierCountry`: the VAT id's prefix, else the address's country. */
function supplierCountry(party: Party): string {
  return party.vat_id?.slice(0, 2).toUpperCase() ?? party.address.country_code;
}

function checkNorway(invoice: Invoice, add: Add): void {
  const vat = invoice.seller.vat_id ?? '';
  if (!/^NO[0-9]{9}MVA$/.test(vat) || !mod11(vat.slice(2, 11)))
    add(
      'seller.vat_id',
      'a Norwegian VAT id is NO, a valid organisation number (9 digits) and MVA, e.g. NO999999999MVA (NO-R-001)',
    );
}

/** DK-R-005: the payment means codes allowed between Danish parties. */
const DK_MEANS = new Set(['1', '10', '31', '42', '48', '49', '50', '58', '59', '93', '97']);

function checkDenmark(invoice: Invoice, totals: InvoiceTotals, add: Add): void {
  const { seller, buyer } = invoice;
  if (!seller.legal_registration_id)
    add('seller.legal_registration_id', 'is required for a Danish seller: the CVR number (DK-R-002)');
  else if (seller.legal_registration_scheme !== '0184')
    add('seller.legal_registration_scheme', 'must be 0184 (CVR) for a Danish seller (DK-R-014)');
  const danishBuyer = buyer.address.country_code === 'DK';
  if (CREDIT_NOTE_TYPE_CODES.has(invoice.type_code) && danishBuyer && totals.due_payable.lt(0))
    add(
      'type_code',
      'a credit note from a Danish seller to a Danish buyer cannot have a negative total (DK-R-016)',
    );
  if (!danishBuyer) return;
  for (const role of ['seller', 'buyer'] as const)
    if (invoice[role].id && !invoice[role].id_scheme)
      add(`${role}.id_scheme`, 'is required with id between Danish parties (DK-R-013)');
  if (buyer.legal_registration_id && buyer.legal_registration_scheme !== '0184')
    add('buyer.legal_registration_scheme', 'must be 0184 (CVR) for a Danish buyer (DK-R-017)');
  invoice.lines.forEach((line, i) => {
    // DK-R-003 wants the UNSPSC release (listVersionID 19.05.01 or 26.08.01), which the model does not carry.
    if (line.classification_code && line.classification_scheme === 'TST')
      add(
        `lines[${i}].classification_scheme`,
        'UNSPSC (TST) needs its list version between Danish parties, which Quire cannot write; leave the classification out (DK-R-003)',
      );
  });
  const p = invoice.payment;
  if (!p) return;
  if (!DK_MEANS.has(p.means_code))
    add('payment.means_code', `must be one of ${[...DK_MEANS].join(', ')} between Danish parties (DK-R-005)`);
  else if ((p.means_code === '31' || p.means_code === '42') && !(p.iban && p.bic))
    add(
      'payment.bic',
      `iban and bic are required with means_code ${p.means_code} between Danish parties (DK-R-006)`,
    );
  else if (p.means_code === '49' && !(p.mandate_reference && p.debited_iban))
    add(
      'payment.debited_iban',
      'mandate_reference and debited_iban are required with means_code 49 (DK-R-007)',
    );
  else if (p.means_code === '50' || p.means_code === '93')
    // Giro and FIK need a Danish account number and a card type code the model cannot carry (its account is an IBAN).
    add(
      'payment.means_code',
      `${p.means_code} needs a Danish giro/FIK account Quire cannot write (DK-R-008, DK-R-010)`,
    );
}

function checkItaly(invoice: Invoice, add: Add): void {
  const { seller } = invoice;
  if (seller.tax_number && !/^[A-Z0-9]{11,16}$/.test(seller.tax_number))
    add('seller.tax_number', 'must be 11 to 16 capital letters or digits for an Italian seller (IT-R-001)');
  const rules = { line1: 'IT-R-002', city: 'IT-R-003', postal_code: 'IT-R-004' } as const;
  for (const [key, rule] of Object.entries(rules) as [keyof typeof rules, string][])
    if (!seller.address[key]) add(`seller.address.${key}`, `is required for an Italian seller (${rule})`);
}

/** SE-R-006: the standard rates a Swedish VAT-registered seller may use. */
const SE_RATES = new Set(['25', '12', '6']);

function checkSweden(invoice: Invoice, add: Add): void {
  const { seller } = invoice;
  const swedishVat = seller.vat_id?.startsWith('SE') ?? false;
  if (swedishVat && !/^SE[0-9]{12}$/.test(seller.vat_id ?? ''))
    add('seller.vat_id', 'a Swedish VAT id is SE and 12 digits, 14 characters in all (SE-R-001, SE-R-002)');
  const orgNr = seller.legal_registration_id;
  if (orgNr && !isSeOrg(orgNr))
    add(
      'seller.legal_registration_id',
      'a Swedish organisation number is 10 digits with a valid Luhn check digit (SE-R-003, SE-R-004, SE-R-013)',
    );
  if (orgNr && seller.tax_number && seller.tax_number.toUpperCase() !== 'GODKÄND FÖR F-SKATT')
    add('seller.tax_number', "must be 'Godkänd för F-skatt' for a Swedish seller (SE-R-005)");
  if (!swedishVat) return;
  const rates = [
    ...invoice.lines.map((l, i) => ({ vat: l.vat, path: `lines[${i}].vat.rate` })),
    ...invoice.allowances.map((a, i) => ({ vat: a.vat, path: `allowances[${i}].vat.rate` })),
    ...invoice.charges.map((c, i) => ({ vat: c.vat, path: `charges[${i}].vat.rate` })),
  ];
  for (const { vat, path } of rates)
    if (vat.category === 'S' && !SE_RATES.has(vat.rate?.toString() ?? ''))
      add(path, 'must be 25, 12 or 6 for a Swedish seller (SE-R-006)');
}

function checkIceland(invoice: Invoice, add: Add): void {
  const { seller, buyer } = invoice;
  icelandicParty(seller, 'seller', 'IS-R-002', 'IS-R-003', add);
  if (buyer.address.country_code === 'IS') icelandicParty(buyer, 'buyer', 'IS-R-004', 'IS-R-005', add);
  const means = invoice.payment?.means_code;
  if (means === '9' || means === '42')
    // IS-R-006/007 want the 12-digit Icelandic account number; the model's account is an IBAN.
    add(
      'payment.means_code',
      `${means} needs a 12-digit Icelandic account Quire cannot write (IS-R-006, IS-R-007)`,
    );
}

function icelandicParty(party: Party, role: string, idRule: string, addressRule: string, add: Add): void {
  if (!party.legal_registration_id || party.legal_registration_scheme !== '0196')
    add(
      `${role}.legal_registration_id`,
      `the kennitala with legal_registration_scheme 0196 is required (${idRule})`,
    );
  for (const key of ['line1', 'postal_code'] as const)
    if (!party.address[key])
      add(`${role}.address.${key}`, `is required for an Icelandic ${role} (${addressRule})`);
}
