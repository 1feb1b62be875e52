// Croatian HR-CIUS 2025 samples: the official eRačun examples (official/, unmodified) carry a placeholder OIB with a
// wrong check digit and 2025 dates, which the 1.0.3 rules reject (HR-BR-9, HR-BR-53: invalid OIB; HR-BR-40: issue date
// before 2026-01-01). This script writes filled-<name>.xml with only those placeholders replaced:
//   - OIB 12345678901 (also as HR12345678901) -> 12345678903 (same digits, valid ISO 7064 MOD 11,10 check digit);
//     the other OIB of the examples, 11111111119, is valid and kept;
//   - every date 2025-MM-DD -> 2026-MM-DD (all dates move by one year, so their order is kept).
// Then it builds the broken variants (broken/) from filled-eRacun_PDV25.xml.
//   node make-samples.mjs            (run inside tools/einvoice-validate/samples/hr-cius)
import fs from 'node:fs';

const fill = (x) => x
  .replace(/>(HR)?12345678901</g, (m, hr) => `>${hr ?? ''}12345678903<`)
  .replace(/>2025-(\d\d-\d\d)</g, '>2026-$1<');
// Racun_za_leasing_PDV_PPMV_aktivacija.xml is left out: besides the placeholders it fails HR-BR-25 (invoice line
// without a KPD/CPA classification, listID "CG"), a real content error of the example under the 1.0.3 rules.
const SKIP = ['Racun_za_leasing_PDV_PPMV_aktivacija.xml'];
for (const f of fs.readdirSync('official').filter((n) => n.endsWith('.xml') && !SKIP.includes(n))) {
  fs.writeFileSync(`filled-${f}`, fill(fs.readFileSync(`official/${f}`, 'utf8')));
}

fs.mkdirSync('broken', { recursive: true });
const change = (src, dst, edit) => {
  const a = fs.readFileSync(src, 'utf8');
  const b = edit(a);
  if (b === a) throw new Error(`${src}: sample changed, nothing replaced`);
  fs.writeFileSync(`broken/${dst}`, b);
};
const base = 'filled-eRacun_PDV25.xml';
// 1. wrong total: PayableAmount (BT-115) + 1.00 (EN16931 BR-CO-16)
change(base, 'eRacun_PDV25.changed-payable.xml',
  (x) => x.replace(/(<cbc:PayableAmount currencyID="EUR">)([0-9.]+)(<\/cbc:PayableAmount>)/, (m, a, v, b) => `${a}${(Number(v) + 1).toFixed(2)}${b}`));
// 2. missing mandatory element: IssueTime (HR-BT-2) removed (HR-BR-2)
change(base, 'eRacun_PDV25.no-issue-time.xml', (x) => x.replace(/\s*<cbc:IssueTime>[^<]*<\/cbc:IssueTime>/, ''));
// 3. missing mandatory element: ProfileID (BT-23, process P1-P12) removed (HR-BR-34)
change(base, 'eRacun_PDV25.no-profile-id.xml', (x) => x.replace(/\s*<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, ''));

console.log('written:', fs.readdirSync('.').filter((f) => f.startsWith('filled-')).length, 'filled | broken:', fs.readdirSync('broken').join(', '));
