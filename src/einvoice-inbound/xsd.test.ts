import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ARTEFACTS_DIR, artefactPath } from './artefacts.js';
import { checkXsd, isSchemaFile } from './xsd.js';

const UBL = 'xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd';
const example = () =>
  readFileSync(path.join(ARTEFACTS_DIR, '..', 'samples', 'peppol', 'base-example.xml'), 'utf8');

describe('XSD check (libxml2, schemas compiled once)', () => {
  it('lets libxml2 open the official artefacts and nothing else', () => {
    assert.equal(
      isSchemaFile(artefactPath('xsd/ubl-2.1/common/UBL-CommonAggregateComponents-2.1.xsd')),
      true,
    );
    assert.equal(isSchemaFile('/etc/passwd'), false);
    assert.equal(isSchemaFile(path.join(ARTEFACTS_DIR, '..', '..', '..', 'package.json')), false);
    assert.equal(isSchemaFile(`${ARTEFACTS_DIR}-elsewhere/x.xsd`), false);
  });

  it('passes a valid invoice and names the line of an element the schema does not allow', () => {
    assert.deepEqual(checkXsd(example(), UBL), []);
    const broken = example().replace('<cbc:DueDate>', '<cbc:Unexpected>x</cbc:Unexpected><cbc:DueDate>');
    const findings = checkXsd(broken, UBL);
    assert.equal(findings.length, 1);
    assert.equal(findings[0]?.rule, 'XSD');
    assert.match(findings[0]?.message ?? '', /Unexpected.*not expected/);
    assert.match(findings[0]?.location ?? '', /^line \d+$/);
  });

  it('answers a document libxml2 cannot parse with XSD findings, not an exception', () => {
    const findings = checkXsd('<Invoice', UBL);
    assert.ok(findings.length > 0);
    assert.ok(findings.every((f) => f.rule === 'XSD' && f.severity === 'error'));
  });
});
