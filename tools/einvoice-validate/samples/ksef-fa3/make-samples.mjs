// KSeF FA(3) samples: fills the placeholders of the official Ministry of Finance templates and builds
// deliberately broken variants.
//   node make-samples.mjs            (run inside tools/einvoice-validate/samples/ksef-fa3)
// Reads templates/*.xml (unmodified copies from CIRFMF/ksef-client-java, see ../README.md), writes
// filled-*.xml beside this script and broken/*.xml. ksef-pdf-generator_invoice.xml needs no filling.
import fs from 'node:fs';

// The placeholders and the values put in. The templates' own integration tests (ksef-client-java
// demo-web-app/src/integrationTest, e.g. OnlineSessionIntegrationTest) fill #invoicing_date# with 2025-06-15 and
// #invoice_number# with a random UUID; the NIPs are those of the ministry's own FA(3) example
// (CIRFMF/ksef-pdf-generator assets/invoice.xml), which have valid NIP check digits.
const FILL = {
  '#nip#': '5265877635', // seller (Podmiot1)
  '#subject2nip#': '6808208874', // buyer (Podmiot2)
  '#selfInvocingNip#': '6808208874', // buyer in the self-billing template (sic: the template's spelling)
  '#invoicing_date#': '2025-06-15', // P_1, issue date
  '#invoice_number#': '0b7e3f3a-1d2c-4e5f-8a9b-0c1d2e3f4a5b', // part of P_2, the invoice number
};
const fill = (x) => {
  let y = x;
  for (const [k, v] of Object.entries(FILL)) y = y.split(k).join(v);
  const left = y.match(/#[A-Za-z0-9_]+#/g);
  if (left) throw new Error(`unfilled placeholders: ${left.join(', ')}`);
  return y;
};

const TEMPLATES = ['invoice-template_v3.xml', 'invoice-template-fa-3-with-custom-subject_2.xml', 'invoice_template_v3_self_invoicing.xml'];
for (const t of TEMPLATES) fs.writeFileSync(`filled-${t}`, fill(fs.readFileSync(`templates/${t}`, 'utf8')));

fs.mkdirSync('broken', { recursive: true });
const change = (src, dst, edit) => {
  const a = fs.readFileSync(src, 'utf8');
  const b = edit(a);
  if (b === a) throw new Error(`${src}: sample changed, nothing replaced`);
  fs.writeFileSync(`broken/${dst}`, b);
};
const base = 'filled-invoice-template_v3.xml';

// 1. wrong total: P_15 (amount due) with three decimals; TKwotowy allows two (XSD cvc-fractionDigits-valid).
//    An arithmetically wrong but well-formed P_15 (e.g. 13103.43) is NOT an error: the FA(3) schema has no
//    sum rules and KSeF itself does not recompute totals.
change(base, 'filled-invoice-template_v3.changed-total.xml',
  (x) => x.replace('<P_15>13102.43</P_15>', '<P_15>13102.431</P_15>'));

// 2. missing mandatory element: P_2 (invoice number) removed (XSD cvc-complex-type.2.4.a)
change(base, 'filled-invoice-template_v3.no-invoice-number.xml',
  (x) => x.replace(/\s*<P_2>[^<]*<\/P_2>/, ''));

// 3. seller NIP not matching the TNrNIP pattern (XSD cvc-pattern-valid)
change(base, 'filled-invoice-template_v3.bad-nip.xml',
  (x) => x.replace('<NIP>5265877635</NIP>', '<NIP>0265877635</NIP>'));

console.log('written:', fs.readdirSync('.').filter((f) => f.startsWith('filled-')).join(', '), '| broken:', fs.readdirSync('broken').join(', '));
