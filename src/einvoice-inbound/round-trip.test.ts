import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EINVOICE_FIXTURES, fixtureTargets, peppolVariant } from '../../test/fixtures/einvoice-fixtures.js';
import {
  loadEInvoiceOutput,
  type PreparedEInvoice,
  type Profile,
  validateEInvoice,
  XML_STANDARDS,
} from '../einvoice/index.js';
import { parseReceived } from './parse.js';

/** Profiles whose XML carries every field of the model (MINIMUM and BASIC WL carry no lines; BASIC drops some). */
const FULL_PROFILES: readonly Profile[] = ['en16931', 'extended', 'xrechnung'];

function prepare(standard: string, profile: Profile, invoice: unknown): PreparedEInvoice {
  const result = validateEInvoice({ standard, profile, invoice });
  if (!result.ok) throw new Error(`${standard}/${profile}: ${JSON.stringify(result.error.details)}`);
  return result.value;
}

async function generate(prepared: PreparedEInvoice): Promise<string> {
  const output = await loadEInvoiceOutput();
  return XML_STANDARDS[prepared.standard] === 'ubl'
    ? output.buildUbl(prepared)
    : output.buildCii(prepared, prepared.profile);
}

/** The prepared model as JSON (Decimals as strings), the documented defaults already applied on both sides. */
const comparable = (prepared: PreparedEInvoice) => JSON.parse(JSON.stringify(prepared.invoice));

describe('parse(generate(model)) equals the model', () => {
  for (const fixture of EINVOICE_FIXTURES) {
    for (const { standard, profile } of fixtureTargets(fixture)) {
      // Peppol takes the scenario in its Peppol form (participant ids, not e-mail endpoints), or not at all.
      const invoice = standard === 'peppol' ? peppolVariant(fixture.invoice) : fixture.invoice;
      if (invoice === undefined) continue;
      it(`${fixture.name}: ${standard}/${profile}`, async () => {
        const original = prepare(standard, profile, invoice);
        const xml = await generate(original);
        const parsed = await parseReceived(Buffer.from(xml));
        assert.equal(
          parsed.profile,
          profile === 'basic-wl' || profile === 'minimum' ? profile : parsed.profile,
        );
        if (profile === 'minimum' || profile === 'basic-wl') {
          // These profiles carry no lines: the document's totals are what the receiver learns.
          assert.equal(parsed.invoice.number, original.invoice.number);
          assert.equal(
            parsed.totals.due_payable,
            original.totals.due_payable.toFixed(2).replace(/\.?0+$/, ''),
          );
          return;
        }
        const again = prepare(standard, profile, parsed.invoice);
        if (FULL_PROFILES.includes(profile)) assert.deepEqual(comparable(again), comparable(original));
        // Whatever the profile keeps survives a second trip unchanged.
        const twice = prepare(
          standard,
          profile,
          (await parseReceived(Buffer.from(await generate(again)))).invoice,
        );
        assert.deepEqual(comparable(twice), comparable(again));
        assert.equal(
          Object.keys(parsed.totals).length > 0 && parsed.totals.due_payable,
          original.totals.due_payable.toFixed(2).replace(/0+$/, '').replace(/\.$/, ''),
        );
      });
    }
  }
});
