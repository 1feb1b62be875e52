import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { damagedBytes, rng } from '../../test/helpers/random.js';
import { withinTime } from '../../test/helpers/wait.js';
import { isAppError } from '../shared/errors.js';
import { ReceivedEInvoices } from './pool.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 28);
const RUNS = Number(process.env.QUIRE_EINVOICE_FUZZ_RUNS ?? 30);
/** Generous: a task past its own 10 s limit is refused by the pool; this only catches a hang of the pool. */
const HANG_MS = 60_000;
/** The fair queue's lane of every file here: one team's. */
const TEAM = 'team-a';

const XML = readFileSync('tools/einvoice-validate/samples/peppol/base-example.xml');
const CII = readFileSync('tools/einvoice-validate/samples/xml/zf24_EN16931_Einfach.xml');
const PDF = readFileSync('tools/einvoice-validate/samples/pdf/zf24_EN16931_Einfach_fx.pdf');

describe('received e-invoices: random and damaged files', () => {
  const pool = new ReceivedEInvoices({ threads: 1 });
  after(() => pool.close());

  it(`answers a report or invalid_request on content_base64 for ${RUNS} damaged files, never anything else`, async () => {
    const r = rng(SEED);
    for (let run = 0; run < RUNS; run++) {
      const bytes = damagedBytes(r, r.pick([XML, CII, PDF]), 200);
      const action: Promise<object> = r.int(2) === 0 ? pool.validate(TEAM, bytes) : pool.parse(TEAM, bytes);
      try {
        const report = await withinTime(action, HANG_MS, 'the e-invoice pool hung');
        assert.equal(typeof report, 'object', `seed ${SEED} run ${run}`);
      } catch (err) {
        assert.ok(isAppError(err), `seed ${SEED} run ${run}: ${String(err)}`);
        assert.equal(err.code, 'invalid_request', `seed ${SEED} run ${run}: ${err.message}`);
        assert.equal(err.details?.field, 'content_base64');
      }
    }
  });

  it('an entity-expansion file is refused before parsing', async () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "${'a'.repeat(100)}">${Array.from(
      { length: 8 },
      (_, i) => `<!ENTITY b${i} "${`&${i === 0 ? 'a' : `b${i - 1}`};`.repeat(10)}">`,
    ).join('')}]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&b7;</Invoice>`;
    await assert.rejects(pool.validate(TEAM, Buffer.from(lol)), (err: unknown) => {
      assert.ok(isAppError(err));
      assert.match(err.message, /DOCTYPE/);
      return true;
    });
  });

  it('an invoice that takes longer than the time limit is refused with details.limit, and the pool goes on', async () => {
    const quick = new ReceivedEInvoices({ threads: 1, timeMs: 1_000 });
    try {
      const xml = XML.toString('utf8');
      const line = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/.exec(xml)?.[0] ?? '';
      const huge = xml.replace(line, line.repeat(3_000));
      await assert.rejects(quick.validate(TEAM, Buffer.from(huge)), (err: unknown) => {
        assert.ok(isAppError(err));
        assert.equal(err.code, 'invalid_request');
        assert.equal(err.details?.limit, 'parse_time_ms');
        assert.equal(err.details?.field, 'content_base64');
        return true;
      });
      // The worker was stopped; the next file gets a fresh one.
      assert.equal((await pool.validate(TEAM, XML)).valid, true);
    } finally {
      await quick.close();
    }
  });
});
