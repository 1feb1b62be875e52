// Builds deliberately broken variants of the official FNFE-MPE example for the French reform (fr-ctc).
//   node make-broken.mjs            (run inside tools/einvoice-validate/samples/fr-ctc)
// Writes broken/*.xml. Each variant breaks one known thing. The example uses CRLF line ends.
import fs from 'node:fs';

fs.mkdirSync('broken', { recursive: true });
const SRC = 'Facture_F20260024-LE_FOURNISSEUR-POUR-LE_CLIENT_BASICWL_FX_CII_Commentee.xml';
const change = (dst, edit) => {
  const a = fs.readFileSync(SRC, 'utf8');
  const b = edit(a);
  if (b === a) throw new Error(`${SRC}: sample changed, nothing replaced`);
  fs.writeFileSync(`broken/${dst}`, b);
};

// 1. wrong total: GrandTotalAmount (BT-112) 108.00 -> 109.00 (Factur-X BASIC WL BR-CO-15, BR-CO-16)
change('F20260024_BASICWL.changed-total.xml',
  (x) => x.replace('<ram:GrandTotalAmount>108.00</ram:GrandTotalAmount>', '<ram:GrandTotalAmount>109.00</ram:GrandTotalAmount>'));

// 2. missing mandatory element (French rule): the late-payment penalty note (BT-21 = PMD) removed
//    (BR-FR-05_BT-22_PMD); still auto-detected as fr-ctc through BT-23 = S1
change('F20260024_BASICWL.no-pmd-note.xml',
  (x) => x.replace(/<ram:IncludedNote>(?:(?!<\/ram:IncludedNote>)[\s\S])*<ram:SubjectCode>PMD<\/ram:SubjectCode>[\s\S]*?<\/ram:IncludedNote>\s*/, ''));

// 3. missing mandatory element (French rule): BT-23 billing mode removed (BR-FR-08_BT-23). Without BT-23 the
//    document no longer says it is French, so this one FAILs only with --profile fr-ctc (auto-detection: basicwl, PASS)
change('F20260024_BASICWL.no-billing-mode.xml',
  (x) => x.replace(/<ram:BusinessProcessSpecifiedDocumentContextParameter>[\s\S]*?<\/ram:BusinessProcessSpecifiedDocumentContextParameter>\s*/, ''));

console.log('written:', fs.readdirSync('broken').join(', '));
