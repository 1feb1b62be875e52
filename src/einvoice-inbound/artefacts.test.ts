import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CompiledRules, mayBeOutdated, sefPathOf } from './artefacts.js';
import { RULE_SETS } from './rule-sets.js';

const STYLESHEETS = RULE_SETS.flatMap((set) => set.stylesheets);
const MINIMUM = 'facturx-1.09.2/minimum/FACTUR-X_MINIMUM.xslt';
const CEN_UBL = 'en16931/EN16931-UBL-validation.xslt';

describe('CompiledRules: which compiled e-invoice rules a check may use', () => {
  it('nothing pending by default: a missing SEF is refused as missing, with the way to compile it', () => {
    const rules = new CompiledRules('/nowhere');
    assert.deepEqual(rules.location(), { dir: '/nowhere', pending: [] });
    assert.equal(rules.ready(), true);
    const refusal = rules.refusal(MINIMUM);
    assert.equal(refusal.code, 'service_busy');
    assert.equal(refusal.status, 503);
    assert.equal(refusal.headers['retry-after'], '60');
    assert.match(
      refusal.message,
      /FACTUR-X_MINIMUM\.xslt\) cannot run: their compiled form is missing on this server/,
    );
    assert.doesNotMatch(refusal.message, /nowhere/, 'no server path in an answer to a caller');
    assert.deepEqual(refusal.details, { reason: 'einvoice_rules_missing', stylesheet: MINIMUM });
  });

  it('a check told to wait for a stylesheet compiled while it ran is run again; one never pending is not', () => {
    const rules = new CompiledRules('/rules');
    rules.compiling([CEN_UBL, MINIMUM]);
    const told = rules.location();
    assert.equal(rules.compiledSince(told, MINIMUM), false, 'still compiling');
    rules.compiled(CEN_UBL);
    rules.compiled(MINIMUM);
    assert.equal(rules.compiledSince(told, MINIMUM), true);
    assert.equal(rules.compiledSince(rules.location(), MINIMUM), false, 'not pending when the check started');
    rules.compiling([MINIMUM]);
    const again = rules.location();
    rules.failed('compiling them failed');
    assert.equal(rules.compiledSince(again, MINIMUM), false, 'a failed compile is answered, not retried');
  });

  it('while compiling: each pending stylesheet waits for those before it, and is free once compiled', () => {
    const rules = new CompiledRules('/rules');
    rules.compiling([CEN_UBL, MINIMUM]);
    assert.equal(rules.ready(), false);
    assert.deepEqual(rules.location().pending, [CEN_UBL, MINIMUM]);
    const now = Number(rules.refusal(CEN_UBL).headers['retry-after']);
    const later = Number(rules.refusal(MINIMUM).headers['retry-after']);
    assert.ok(now >= 2 && later > now, `${now} s, then ${later} s`);
    assert.match(rules.refusal(CEN_UBL).message, /are being compiled .*\(now\); retry in about \d+ s\./);
    assert.match(rules.refusal(MINIMUM).message, /\(1 stylesheet before it\)/);
    assert.equal(rules.refusal(MINIMUM).details?.reason, 'einvoice_rules_compiling');

    rules.compiled(CEN_UBL, 4_000);
    assert.deepEqual(rules.location().pending, [MINIMUM]);
    assert.match(rules.refusal(MINIMUM).message, /\(now\)/);
    rules.compiled(MINIMUM, 4_000);
    assert.equal(rules.ready(), true);
  });

  it('a compile that failed leaves its stylesheets refused, saying why', () => {
    const rules = new CompiledRules('/rules');
    rules.compiling([MINIMUM]);
    rules.failed('compiling them failed (the server log says why)');
    const refusal = rules.refusal(MINIMUM);
    assert.match(refusal.message, /cannot run: compiling them failed \(the server log says why\)/);
    assert.equal(refusal.headers['retry-after'], '60');
  });
});

describe('mayBeOutdated: the start-up check by file dates', () => {
  it('every stylesheet of an empty directory, none once each has a SEF and a newer stamp', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-sef-'));
    try {
      assert.deepEqual(mayBeOutdated(dir, 0).sort(), [...STYLESHEETS].sort());
      for (const stylesheet of STYLESHEETS) {
        writeFileSync(sefPathOf(stylesheet, dir), '{}');
        writeFileSync(`${sefPathOf(stylesheet, dir)}.stamp`, 'x');
      }
      assert.deepEqual(mayBeOutdated(dir, 0), []);
      // A stamp older than the last install, or than its stylesheet, may be outdated.
      assert.deepEqual(mayBeOutdated(dir, Date.now() + 60_000).sort(), [...STYLESHEETS].sort());
      utimesSync(`${sefPathOf(MINIMUM, dir)}.stamp`, new Date(0), new Date(0));
      assert.deepEqual(mayBeOutdated(dir, 0), [MINIMUM]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
