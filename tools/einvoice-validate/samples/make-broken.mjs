// Builds deliberately broken variants of the official samples (needs qpdf).
//   node make-broken.mjs            (run inside tools/einvoice-validate/samples)
// Writes broken/*.xml and broken/*.pdf. Each variant breaks one known thing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const run = (args, input) => {
  const r = spawnSync('qpdf', args, { input, maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 3) throw new Error(`qpdf ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
fs.mkdirSync('broken', { recursive: true });

// 1. XML with a changed grand total (BR-CO-15 / BR-CO-16)
const x = fs.readFileSync('xml/zf24_EN16931_Einfach.xml', 'utf8');
if (!x.includes('<ram:GrandTotalAmount>529.87</ram:GrandTotalAmount>')) throw new Error('sample changed');
fs.writeFileSync('broken/zf24_EN16931_Einfach.changed-total.xml', x.replace('<ram:GrandTotalAmount>529.87</ram:GrandTotalAmount>', '<ram:GrandTotalAmount>530.87</ram:GrandTotalAmount>'));

// 2. UBL XRechnung with a changed payable amount
const u = fs.readFileSync('xml/kosit_01.01a-INVOICE_ubl.xml', 'utf8');
const u2 = u.replace(/(<cbc:PayableAmount currencyID="EUR">)([0-9.]+)(<\/cbc:PayableAmount>)/, (m, a, v, b) => `${a}${(Number(v) + 1).toFixed(2)}${b}`);
if (u2 === u) throw new Error('no PayableAmount');
fs.writeFileSync('broken/kosit_01.01a-INVOICE_ubl.changed-payable.xml', u2);

// 3. XML that is not schema-valid (an element the Factur-X MINIMUM XSD does not allow)
const m = fs.readFileSync('xml/zf24_MINIMUM_Rechnung.xml', 'utf8');
const m2 = m.replace('</rsm:ExchangedDocument>', '<ram:Note><ram:Content>not allowed in MINIMUM</ram:Content></ram:Note></rsm:ExchangedDocument>');
if (m2 === m) throw new Error('no ExchangedDocument');
fs.writeFileSync('broken/zf24_MINIMUM_Rechnung.xsd-invalid.xml', m2);

// 4. XRechnung CII without the buyer reference BT-10 (XRechnung rule BR-DE-15)
const k = fs.readFileSync('xml/kosit_01.01a-INVOICE_uncefact.xml', 'utf8');
const k2 = k.replace(/<ram:BuyerReference>[^<]*<\/ram:BuyerReference>\s*/, '');
if (k2 === k) throw new Error('no BuyerReference');
fs.writeFileSync('broken/kosit_01.01a-INVOICE_uncefact.no-buyer-reference.xml', k2);

// 5. PDF whose embedded factur-x.xml has a changed total (same length, stream rewritten by qpdf)
const src = 'pdf/zf24_EN16931_Einfach_fx.pdf';
const qdf = run(['--qdf', '--object-streams=disable', src, '-']);
const b = Buffer.from(qdf.toString('latin1').replace('<ram:GrandTotalAmount>529.87</ram:GrandTotalAmount>', '<ram:GrandTotalAmount>530.87</ram:GrandTotalAmount>'), 'latin1');
fs.writeFileSync('broken/tmp.qdf', b);
run(['broken/tmp.qdf', 'broken/zf24_EN16931_Einfach_fx.changed-total.pdf']);
fs.rmSync('broken/tmp.qdf');

// 6. PDF with broken Factur-X/PDF-A structure, made with qpdf --update-from-json:
//    no /AFRelationship, no catalog /AF, MIME application/octet-stream,
//    a font program removed, XMP claiming PDF/A-2 and fx:ConformanceLevel BASIC.
const j = JSON.parse(run(['--json=2', '--json-key=qpdf', src, '-']).toString());
const objs = j.qpdf[1];
const get = (ref) => objs['obj:' + ref];
const trailer = objs.trailer.value;
const rootRef = trailer['/Root'];
const root = get(rootRef).value;
const upd = {};
const [fsName, fsRef] = root['/Names']['/EmbeddedFiles']['/Names'];
const fsd = { ...get(fsRef).value }; delete fsd['/AFRelationship']; upd['obj:' + fsRef] = { value: fsd };
const efRef = fsd['/EF']['/F'];
const efDict = { ...get(efRef).stream.dict, '/Subtype': '/application/octet-stream' };
upd['obj:' + efRef] = { stream: { dict: efDict } };
const root2 = { ...root }; delete root2['/AF']; upd['obj:' + rootRef] = { value: root2 };
for (const [k, o] of Object.entries(objs)) {
  if (k.startsWith('obj:') && o.value && o.value['/Type'] === '/FontDescriptor' && o.value['/FontFile2']) {
    const d = { ...o.value }; delete d['/FontFile2']; upd[k] = { value: d }; break;
  }
}
const mdRef = root['/Metadata'];
const xmp = run([`--show-object=${mdRef.split(' ')[0]}`, '--filtered-stream-data', src]).toString('utf8')
  .replace('<pdfaid:part>3</pdfaid:part>', '<pdfaid:part>2</pdfaid:part>')
  .replace('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>', '<fx:ConformanceLevel>BASIC</fx:ConformanceLevel>');
upd['obj:' + mdRef] = { stream: { dict: { ...get(mdRef).stream.dict }, data: Buffer.from(xmp, 'utf8').toString('base64') } };
delete upd['obj:' + mdRef].stream.dict['/Length'];
delete upd['obj:' + mdRef].stream.dict['/Filter'];
fs.writeFileSync('broken/update.json', JSON.stringify({ qpdf: [j.qpdf[0], upd] }));
run([src, '--update-from-json=broken/update.json', 'broken/zf24_EN16931_Einfach_fx.broken-structure.pdf']);
fs.rmSync('broken/update.json');
console.log('written:', fs.readdirSync('broken').join(', '));
