import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ARTEFACTS_DIR, artefactPath } from './artefacts.js';
import { INBOUND_PROFILES, planCii, planUbl, ublProfileOf } from './plan.js';
import { RULE_SETS, ruleSetsOf } from './rule-sets.js';

/** The compile list of scripts/compile-einvoice-rules.mjs, read as text (a script, not a module of src/). */
function compileList(): string[] {
  const script = readFileSync(
    path.join(ARTEFACTS_DIR, '..', '..', '..', 'scripts', 'compile-einvoice-rules.mjs'),
    'utf8',
  );
  const list = /export const STYLESHEETS = \[([\s\S]*?)\];/.exec(script)?.[1] ?? '';
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
}

/** Every plan the validator can make: each profile forced, on both syntaxes and both UBL document kinds. */
function everyPlan() {
  const forced = [undefined, ...INBOUND_PROFILES];
  return [
    ...forced.filter((p) => p !== 'peppol').map((p) => planCii('urn:cen.eu:en16931:2017', p)),
    ...forced.flatMap((p) => [planUbl(false, '', p), planUbl(true, '', p)]),
  ];
}

describe('official rule sets: one declared list, compiled and reported', () => {
  it('compiles exactly the stylesheets the rule sets own, and every artefact is in the repository', () => {
    const owned = RULE_SETS.flatMap((set) => set.stylesheets);
    assert.deepEqual([...compileList()].sort(), [...owned].sort());
    for (const artefact of [...owned, ...RULE_SETS.flatMap((set) => set.schemas)])
      assert.ok(existsSync(artefactPath(artefact)), artefact);
  });

  it('every artefact a plan runs belongs to a rule set with a release', () => {
    const owned = new Set(RULE_SETS.flatMap((set) => [...set.stylesheets, ...set.schemas]));
    for (const plan of everyPlan())
      for (const artefact of [plan.xsd, ...plan.schematrons.map((s) => s.artefact)])
        assert.ok(owned.has(artefact), `${plan.profile}: ${artefact}`);
    for (const set of RULE_SETS) assert.match(set.version, /^[0-9A-Z][0-9A-Za-z.-]*$/, set.name);
  });

  it('names the rule sets and releases a check ran: Peppol BIS 3.0.21 on CEN 1.3.16, Factur-X 1.09.2', () => {
    const peppol = planUbl(
      false,
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    );
    assert.deepEqual(ruleSetsOf([peppol.xsd, ...peppol.schematrons.map((s) => s.artefact)]), [
      { name: 'OASIS UBL schema', version: '2.1' },
      { name: 'CEN EN 16931 validation artefacts', version: '1.3.16' },
      { name: 'OpenPeppol BIS Billing 3.0', version: '3.0.21' },
    ]);
    const basicWl = planCii('urn:factur-x.eu:1p0:basicwl');
    assert.deepEqual(ruleSetsOf([basicWl.xsd, ...basicWl.schematrons.map((s) => s.artefact)]), [
      { name: 'Factur-X / ZUGFeRD', version: '1.09.2' },
    ]);
  });
});

describe('UBL profile detection', () => {
  const EN16931 = 'urn:cen.eu:en16931:2017';
  const XRECHNUNG = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';

  it('a Peppol BIS ProfileID means the Peppol rules whatever the CustomizationID says (R004 then speaks)', () => {
    for (const profileId of [
      'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
      'urn:peppol:bis:billing_with_response',
      'urn:peppol:france:billing:regulated',
    ])
      assert.equal(ublProfileOf(EN16931, profileId), 'peppol', profileId);
    assert.equal(ublProfileOf(EN16931, ''), 'en16931');
    assert.equal(ublProfileOf(EN16931, 'urn:fdc:peppol.eu:2017:poacc:billing:99:1.0'), 'en16931');
  });

  it('XRechnung sent in the Peppol billing process keeps the XRechnung rules', () => {
    assert.equal(ublProfileOf(XRECHNUNG, 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0'), 'xrechnung');
  });
});
