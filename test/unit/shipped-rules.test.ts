import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { SHIPPED, STYLESHEETS, shippedStamps, stampOf } from '../../scripts/compile-einvoice-rules.mjs';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/compile-einvoice-rules.mjs');

/**
 * The compiled e-invoice rules shipped in tools/einvoice-validate/sef/ (a fresh clone unpacks them instead of
 * compiling for minutes): every stylesheet has one, made from its current bytes by the locked SaxonJS, and
 * the script unpacks them into a usable rules folder.
 */
describe('shipped compiled e-invoice rules', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'quire-shipped-rules-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  it('holds every stylesheet, compiled from its current bytes (else run `npm run rules:ship`)', () => {
    const stamps = shippedStamps();
    assert.deepEqual(Object.keys(stamps).sort(), [...STYLESHEETS].sort());
    const stale = STYLESHEETS.filter((rel) => stamps[rel] !== stampOf(rel));
    assert.deepEqual(stale, [], `shipped SEF files older than their stylesheet: run \`npm run rules:ship\``);
    const files = readdirSync(SHIPPED).filter((name) => name.endsWith('.gz'));
    assert.equal(files.length, STYLESHEETS.length, 'one file a stylesheet, none left over');
  });

  it('unpacks them into a rules folder that then counts as up to date, compiling nothing', async () => {
    await run(process.execPath, [SCRIPT, '--out', out, '--shipped-only']);
    for (const rel of STYLESHEETS) {
      const sef = path.join(out, `${rel.replaceAll('/', '__')}.sef.json`);
      assert.ok(existsSync(sef), `${rel} unpacked`);
      assert.equal(readFileSync(`${sef}.stamp`, 'utf8'), stampOf(rel));
      const shipped = gunzipSync(readFileSync(path.join(SHIPPED, `${path.basename(sef)}.gz`)));
      assert.ok(readFileSync(sef).equals(shipped), `${rel}: the shipped bytes`);
      assert.equal((JSON.parse(shipped.toString('utf8')) as { N: string }).N, 'package');
    }
    // --check exits 1 on any stale SEF.
    await run(process.execPath, [SCRIPT, '--out', out, '--check']);
  });
});
