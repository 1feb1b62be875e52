/**
 * Print CSS of the built-in invoice: A4, system fonts that Chromium embeds (PDF/A-3 6.2.11.4.1 needs
 * every font embedded; Liberation Sans and DejaVu Sans are installed on every Quire host).
 */
export const INVOICE_CSS = `
@page { size: A4; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; font-family: 'Liberation Sans', 'DejaVu Sans', 'Noto Sans', sans-serif; font-size: 9pt;
  line-height: 1.35; color: #1f2328; }
.small { font-size: 7.5pt; }
.muted { color: #59636e; }
.label { font-size: 7pt; text-transform: uppercase; letter-spacing: .06em; color: #59636e; margin-bottom: 2mm; }
.head { display: flex; justify-content: space-between; align-items: flex-start; border-bottom: 2px solid #1f4e79;
  padding-bottom: 4mm; margin-bottom: 6mm; }
.seller-name { font-size: 15pt; font-weight: bold; color: #1f4e79; }
.doc-title { text-align: right; }
.doc-title .title { font-size: 16pt; font-weight: bold; margin: 0; }
.doc-title .doc-no { font-size: 11pt; margin-top: 1mm; }
.badge { display: inline-block; margin-top: 2mm; padding: .6mm 2mm; border: 1px solid #1f4e79; border-radius: 2mm;
  font-size: 7pt; color: #1f4e79; }
.parties { display: flex; justify-content: space-between; gap: 8mm; margin-bottom: 5mm; }
.party { flex: 1 1 55%; }
.party-name { font-weight: bold; font-size: 10pt; }
table { border-collapse: collapse; }
.meta { flex: 0 0 48%; font-size: 8pt; }
.meta th, .totals th { white-space: nowrap; }
.meta th, .pay th { text-align: left; font-weight: normal; color: #59636e; padding: .4mm 3mm .4mm 0; vertical-align: top; }
.meta td, .pay td { padding: .4mm 0; vertical-align: top; }
.delivery, .notes { margin-bottom: 5mm; }
.notes p { margin: 0 0 1.5mm; }
.lines, .doc-ac, .vat { width: 100%; margin-bottom: 5mm; }
.lines th, .doc-ac th, .vat th { font-size: 7.5pt; text-align: left; color: #59636e; border-bottom: 1px solid #1f4e79;
  padding: 1.2mm 1.5mm; font-weight: bold; }
.lines td, .doc-ac td, .vat td { padding: 1.5mm; border-bottom: .5px solid #d0d7de; vertical-align: top; }
.lines tr { break-inside: avoid; }
.num { text-align: right !important; white-space: nowrap; }
.pos { width: 8mm; }
.item-name { font-weight: bold; }
.adj { font-size: 7.5pt; color: #59636e; }
.summary { break-inside: avoid; }
.totals { width: 50%; margin-left: auto; margin-bottom: 4mm; }
.totals th { text-align: left; font-weight: normal; padding: .8mm 3mm .8mm 0; }
.totals td { padding: .8mm 0; }
.totals .grand th, .totals .grand td { font-weight: bold; border-top: 1px solid #1f4e79; }
.totals .due th, .totals .due td { font-weight: bold; font-size: 11pt; color: #1f4e79; border-top: 2px solid #1f4e79;
  padding-top: 1.5mm; }
.payment { margin-top: 4mm; padding: 3mm; background: #f3f6f9; border-left: 3px solid #1f4e79; break-inside: avoid; }
.terms { margin-top: 2mm; }
.seller-foot { display: flex; gap: 6mm; margin-top: 8mm; padding-top: 3mm; border-top: 1px solid #d0d7de;
  font-size: 7.5pt; color: #59636e; break-inside: avoid; }
.seller-foot .col { flex: 1; }
`;
