import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../shared/package-root.js';
import { VATEX_CODES } from './codes.js';

/**
 * The code lists are copied from the official CEN schematron; this reads each BR-CL list back out of the
 * compiled rules kept in the repository and compares, so a list edited by hand (or wrapped, as the VATEX list
 * once was, splitting eight codes in two) cannot drift from what the official validator accepts.
 */
const root = packageRoot();
const LISTS = JSON.parse(
  readFileSync(path.join(root, 'src', 'einvoice', 'assets', 'code-lists.json'), 'utf8'),
) as Record<string, string[]>;
const CEN_CII = readFileSync(
  path.join(root, 'tools', 'einvoice-validate', 'artefacts', 'en16931', 'EN16931-CII-validation.xslt'),
  'utf8',
);

/** The codes of a rule's `contains(' A B C ', …)` test, the last one before the rule's id in the XSLT. */
function officialList(rule: string): string[] {
  const at = CEN_CII.indexOf(`<xsl:attribute name="id">${rule}</xsl:attribute>`);
  assert.ok(at > 0, `${rule} is not in the CEN CII rules`);
  const opening = "contains(' ";
  const start = CEN_CII.lastIndexOf(opening, at) + opening.length;
  return CEN_CII.slice(start, CEN_CII.indexOf("'", start)).split(/\s+/).filter(Boolean);
}

describe('e-invoice code lists', () => {
  it('every list holds exactly the codes of its official CEN rule', () => {
    assert.equal(Object.keys(LISTS).length, 10);
    for (const [rule, codes] of Object.entries(LISTS)) {
      assert.deepEqual([...codes].sort(), officialList(rule).sort(), rule);
    }
  });

  it('the validator accepts the VATEX codes a wrapped line once split, and not the fragments', () => {
    for (const code of ['VATEX-EU-132-1E', 'VATEX-EU-143-1I', 'VATEX-FR-CGI261-8', 'VATEX-FR-CGI295'])
      assert.ok(VATEX_CODES.has(code), code);
    for (const fragment of ['VATEX-', 'EU-132-1E', 'FR-CGI295'])
      assert.ok(!VATEX_CODES.has(fragment), fragment);
  });
});
