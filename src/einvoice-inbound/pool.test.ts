import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { AppError } from '../shared/errors.js';
import { CompiledRules } from './artefacts.js';
import { ReceivedEInvoices } from './pool.js';

const MINIMUM = 'facturx-1.09.2/minimum/FACTUR-X_MINIMUM.xslt';
const INVOICE = readFileSync('tools/einvoice-validate/samples/xml/zf24_MINIMUM_Rechnung.xml');

describe('ReceivedEInvoices: a check and the rules compiled after a server start', () => {
  const rules = new CompiledRules();
  const pool = new ReceivedEInvoices({ threads: 1, rules });
  after(() => pool.close());

  it('answers service_busy while its rules are pending, and checks once they are compiled', async () => {
    rules.compiling([MINIMUM]);
    const busy = await pool.validate('team-a', INVOICE).catch((err: unknown) => err);
    assert.ok(busy instanceof AppError, String(busy));
    assert.equal(busy.code, 'service_busy');
    assert.match(busy.message, /are being compiled/);
  });

  it('runs again, not "missing", when the rules it was told to wait for were compiled while it queued', async () => {
    rules.compiling([MINIMUM]);
    // The task carries the pending list of the moment it was sent; the worker answers later than this line.
    const report = pool.validate('team-a', INVOICE);
    rules.compiled(MINIMUM);
    const checked = await report;
    assert.equal(checked.profile, 'minimum');
    assert.equal(checked.valid, true, JSON.stringify(checked.errors));
  });
});
