// Builds deliberately broken variants of the official Peppol BIS Billing 3.0 examples.
//   node make-broken.mjs            (run inside tools/einvoice-validate/samples/peppol)
// Writes broken/*.xml. Each variant breaks one known thing.
import fs from 'node:fs';

fs.mkdirSync('broken', { recursive: true });
const change = (src, dst, edit) => {
  const a = fs.readFileSync(src, 'utf8');
  const b = edit(a);
  if (b === a) throw new Error(`${src}: sample changed, nothing replaced`);
  fs.writeFileSync(`broken/${dst}`, b);
};

// 1. buyer electronic address (BT-49, cbc:EndpointID) removed: optional in EN 16931, mandatory in Peppol (PEPPOL-EN16931-R010)
change('base-example.xml', 'base-example.no-buyer-endpoint.xml',
  (x) => x.replace(/(<cac:AccountingCustomerParty>\s*<cac:Party>)\s*<cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>/, '$1'));

// 2. credit note with a changed total: TaxInclusiveAmount (BT-112) 1656.25 -> 1666.25 (BR-CO-15, BR-CO-16)
change('base-creditnote-correction.xml', 'base-creditnote-correction.changed-total.xml',
  (x) => x.replace('<cbc:TaxInclusiveAmount currencyID="EUR">1656.25</cbc:TaxInclusiveAmount>', '<cbc:TaxInclusiveAmount currencyID="EUR">1666.25</cbc:TaxInclusiveAmount>'));

// 3. wrong CustomizationID (BT-24): plain EN 16931 instead of Peppol BIS 3.0 (PEPPOL-EN16931-R004 with --profile peppol;
//    auto-detection then sees a generic EN 16931 invoice, so --expect-profile peppol FAILs with PROFILE-EXPECTED)
change('base-example.xml', 'base-example.wrong-customization-id.xml',
  (x) => x.replace('<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>', '<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>'));

console.log('written:', fs.readdirSync('broken').join(', '));
