import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomJson, rng } from '../../../test/helpers/random.js';
import { parseReceived } from '../../einvoice-inbound/parse.js';
import { InboundRefusal } from '../../einvoice-inbound/refusal.js';
import { validateReceived } from '../../einvoice-inbound/validate.js';
import { validateEInvoice } from '../validate/validate.js';
import { KSEF_FIXTURES } from './fixtures.js';
import { buildKsef } from './write.js';

type Json = Record<string, unknown>;
const KSEF_KEYS = [
  'exchange_rate',
  'place_of_issue',
  'cash_accounting',
  'self_billing',
  'split_payment',
  'corrected_ksef_number',
  'correction_reason',
  'correction_type',
];

/** One fixture with a few of its fields (and of invoice.ksef) replaced by hostile or odd values. */
function mutated(seed: number): Json {
  const r = rng(seed);
  const invoice = structuredClone(r.pick(KSEF_FIXTURES).invoice) as Json;
  if (r.next() < 0.4) {
    const ksef = { ...((invoice.ksef as Json | undefined) ?? {}) };
    for (let i = r.int(2); i >= 0; i--) ksef[r.pick(KSEF_KEYS)] = randomJson(r, 2, KSEF_KEYS);
    invoice.ksef = r.next() < 0.2 ? randomJson(r, 1, KSEF_KEYS) : ksef;
  }
  const long = (n: number) => 'Ż'.repeat(n);
  const edits: (() => void)[] = [
    () => {
      invoice.seller = { ...(invoice.seller as Json), name: long(513) };
    },
    () => {
      invoice.buyer = {
        ...(invoice.buyer as Json),
        vat_id: r.pick(['PL0000000000', 'EL123', 'XX1', 'PL 526-587-76-35']),
      };
    },
    () => {
      invoice.currency = r.pick(['PLN', 'EUR', 'USD']);
    },
    () => {
      invoice.type_code = r.pick(['380', '381', '384', '386', '389']);
    },
    () => {
      invoice.notes = Array.from({ length: r.int(5) }, () => long(r.pick([1, 3500, 3501])));
    },
    () => {
      const lines = invoice.lines as Json[];
      const line = lines[r.int(lines.length)] as Json;
      line.vat = r.pick([
        { category: 'S', rate: '19' },
        { category: 'L', rate: '7' },
        { category: 'O' },
        { category: 'AE', rate: '0' },
      ]);
      line.quantity = r.pick(['0.1234567', '-1', '3', '1e3']);
    },
  ];
  for (let i = r.int(3); i > 0; i--) r.pick(edits)();
  return invoice;
}

describe('KSeF FA(3): hostile invoices', () => {
  it('every body is refused with invalid_request/invalid_e_invoice, or written as XML the FA(3) schema accepts and that reads back', async () => {
    let written = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const invoice = mutated(seed);
      const result = validateEInvoice({ standard: 'ksef', invoice });
      if (!result.ok) {
        assert.ok(['invalid_e_invoice', 'invalid_request'].includes(result.error.code), `seed ${seed}`);
        continue;
      }
      const xml = buildKsef(result.value);
      const report = await validateReceived(Buffer.from(xml));
      assert.deepEqual(report.errors, [], `seed ${seed}: ${JSON.stringify(invoice).slice(0, 300)}`);
      const parsed = await parseReceived(Buffer.from(xml));
      assert.equal(validateEInvoice({ standard: 'ksef', invoice: parsed.invoice }).ok, true, `seed ${seed}`);
      written++;
    }
    // Not everything is refused: the property is exercised on documents that were written.
    assert.ok(written >= 5, `only ${written} written`);
  });

  it('received FA(3) documents with damaged values or missing elements are answered, never crash the reader', async () => {
    const prepared = validateEInvoice({ standard: 'ksef', invoice: KSEF_FIXTURES[6]?.invoice });
    assert.ok(prepared.ok);
    const xml = buildKsef(prepared.value);
    const values = ['abc', '', '-', '1e5', '💥', 'x'.repeat(600), '-0.001', 'KOR', 'ZAL'];
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      let damaged = xml;
      for (let i = r.int(4); i >= 0; i--) {
        const leaves = [...damaged.matchAll(/<([A-Za-z_0-9]+)>[^<]*<\/\1>/g)];
        const leaf = r.pick(leaves);
        const replacement = r.next() < 0.3 ? '' : `<${leaf[1]}>${r.pick(values)}</${leaf[1]}>`;
        damaged = damaged.replace(leaf[0], replacement);
      }
      for (const check of [validateReceived, parseReceived]) {
        try {
          await check(Buffer.from(damaged));
        } catch (err) {
          assert.ok(err instanceof InboundRefusal, `seed ${seed}: ${String(err)}`);
        }
      }
    }
  });
});
