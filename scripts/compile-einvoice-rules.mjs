#!/usr/bin/env node
// Compiles the official e-invoice schematron stylesheets (XSLT 2, tools/einvoice-validate/artefacts/) to
// SaxonJS SEF files in dist/einvoice-rules/, which POST /v1/e-invoices/validate runs in process
// (src/einvoice-inbound/schematron.ts). Idempotent: a stylesheet is compiled again only when its bytes or the
// compiler's version changed (a .stamp file beside each SEF). Called by `npm test`'s bootstrap, the
// Dockerfile and, in the background after it listens, `quire serve` started from a checkout
// (src/cli/einvoice-rules.ts); about 15 s per stylesheet on a loaded machine, two at a time.
//   --check       exits 1 when any SEF is stale (names them on stderr);
//   --out DIR     writes the SEF files to DIR instead of dist/einvoice-rules (QUIRE_EINVOICE_RULES_DIR);
//   --lanes N     stylesheets compiled at once (default: 2, or 1 on one core);
//   --progress    one JSON line on stdout first with the stale stylesheets in compile order
//                 ({"pending":[…]}), then one per stylesheet compiled ({"compiled":"…","ms":…});
//   --shipped-only  only unpacks the shipped SEF files that match (below), compiles nothing (`npm start`);
//   --ship        compiles what is stale, then writes every SEF into tools/einvoice-validate/sef/ (`npm run
//                 rules:ship`, after a rule set or SaxonJS changed; a unit test fails until it is run).
// Shipped SEF files: tools/einvoice-validate/sef/ holds every stylesheet compiled, gzipped (about 1.8 MB for
// 62 MB), with the stamp it was compiled under (stamps.json). A stale stylesheet whose shipped stamp matches is
// unpacked in well under a second instead of compiled (about 180 s on the slower machine kind here): a fresh
// clone's `npm test` and `npm start` need no compiling. They are derived from the artefacts under the same
// licences (tools/einvoice-validate/SOURCES.md).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ARTEFACTS = path.join(root, 'tools', 'einvoice-validate', 'artefacts');
const COMPILER = path.join(root, 'node_modules', 'xslt3-he', 'xslt3.js');
/** npm rewrites it at every install (the server compares stamps with its date). */
const INSTALLED = path.join(root, 'node_modules', '.package-lock.json');

/** The value of `--NAME VALUE` on the command line, else `fallback`. */
function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 || process.argv[at + 1] === undefined ? fallback : process.argv[at + 1];
}

const OUT = path.resolve(option('out', path.join(root, 'dist', 'einvoice-rules')));
/** QUIRE_EINVOICE_SHIPPED_RULES_DIR names another folder of shipped SEF files (an empty one: compile all). */
export const SHIPPED = path.resolve(
  process.env.QUIRE_EINVOICE_SHIPPED_RULES_DIR || path.join(root, 'tools', 'einvoice-validate', 'sef'),
);
const SHIPPED_STAMPS = path.join(SHIPPED, 'stamps.json');

/**
 * Every schematron stylesheet the validator runs, by path under tools/einvoice-validate/artefacts/: one line
 * per stylesheet, in any order. A new rule set is one more line here, plus its Schematron constant and its
 * RULE_SETS entry (name, version) in src/einvoice-inbound/rule-sets.ts, which a unit test compares with
 * this list. A new release of a rule set replaces its line (docs/e-invoices.md "Moving to a new release").
 */
export const STYLESHEETS = [
  'en16931/EN16931-CII-validation.xslt',
  'en16931/EN16931-UBL-validation.xslt',
  'xrechnung/XRechnung-CII-validation.xsl',
  'xrechnung/XRechnung-UBL-validation.xsl',
  'peppol/3.0.21/PEPPOL-EN16931-UBL.xslt',
  'facturx-1.09.2/minimum/FACTUR-X_MINIMUM.xslt',
  'facturx-1.09.2/basicwl/FACTUR-X_BASIC-WL.xslt',
  'facturx-1.09.2/basic/FACTUR-X_BASIC.xslt',
  'facturx-1.09.2/en16931/FACTUR-X_EN16931.xslt',
  'facturx-1.09.2/extended/FACTUR-X_EXTENDED.xslt',
  'fr-ctc/CII/BR-FR-Flux2-Schematron-CII.xslt',
  'fr-ctc/UBL/BR-FR-Flux2-Schematron-UBL.xslt',
  'fr-ctc/CII/EXTENDED-CTC-FR-CII.xslt',
  'fr-ctc/UBL/EXTENDED-CTC-FR-UBL.xslt',
  'hr-cius/HR-CIUS-EXT-EN16931-UBL.xslt',
];

const compilerVersion = JSON.parse(
  readFileSync(path.join(root, 'node_modules', 'saxonjs-he', 'package.json'), 'utf8'),
).version;

/** dist/einvoice-rules/<artefact path with / as __>.sef.json */
export function sefPathOf(rel) {
  return path.join(OUT, `${rel.replaceAll('/', '__')}.sef.json`);
}

export function stampOf(rel) {
  return createHash('sha256')
    .update(compilerVersion)
    .update(readFileSync(path.join(ARTEFACTS, rel)))
    .digest('hex');
}

function isFresh(rel) {
  const stamp = `${sefPathOf(rel)}.stamp`;
  return existsSync(sefPathOf(rel)) && existsSync(stamp) && readFileSync(stamp, 'utf8') === stampOf(rel);
}

/**
 * The server's start looks at dates only (src/einvoice-inbound/artefacts.ts, mayBeOutdated: a stamp older
 * than its stylesheet or the last npm install): a fresh SEF whose stamp looks older (a checkout or install
 * that changed no byte that counts) gets a new date, so the next start need not start this script.
 */
function touchStamp(rel) {
  const stamp = `${sefPathOf(rel)}.stamp`;
  const installed = statSync(INSTALLED, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const newest = Math.max(statSync(path.join(ARTEFACTS, rel)).mtimeMs, installed);
  if (statSync(stamp).mtimeMs >= newest) return;
  const now = new Date();
  utimesSync(stamp, now, now);
}

function compile(rel) {
  const target = sefPathOf(rel);
  // Per process: two servers started together on one checkout may compile the same stylesheet at once.
  const partial = `${target}.${process.pid}.partial`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [COMPILER, `-xsl:${path.join(ARTEFACTS, rel)}`, `-export:${partial}`, '-nogo', '-relocate:on'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => {
      if (code !== 0)
        return reject(new Error(`compiling ${rel} failed (exit ${code}): ${stderr.slice(-2000)}`));
      renameSync(partial, target);
      writeFileSync(`${target}.stamp`, stampOf(rel));
      resolve();
    });
  });
}

/** The stamps the shipped SEF files were compiled under, by stylesheet ({} when none are shipped). */
export function shippedStamps() {
  return existsSync(SHIPPED_STAMPS) ? JSON.parse(readFileSync(SHIPPED_STAMPS, 'utf8')) : {};
}

function shippedFileOf(rel) {
  return path.join(SHIPPED, `${path.basename(sefPathOf(rel))}.gz`);
}

/** Unpacks the shipped SEF of `rel` when it was compiled from these bytes by this compiler; true if it was. */
function unpackShipped(rel, stamps) {
  if (stamps[rel] !== stampOf(rel) || !existsSync(shippedFileOf(rel))) return false;
  const target = sefPathOf(rel);
  const partial = `${target}.${process.pid}.partial`;
  writeFileSync(partial, gunzipSync(readFileSync(shippedFileOf(rel))));
  renameSync(partial, target);
  writeFileSync(`${target}.stamp`, stampOf(rel));
  return true;
}

/** Writes every (fresh) SEF into SHIPPED, gzipped, with stamps.json; removes shipped files no stylesheet has. */
function ship() {
  mkdirSync(SHIPPED, { recursive: true });
  const stamps = {};
  for (const rel of STYLESHEETS) {
    writeFileSync(shippedFileOf(rel), gzipSync(readFileSync(sefPathOf(rel)), { level: 9 }));
    stamps[rel] = readFileSync(`${sefPathOf(rel)}.stamp`, 'utf8');
  }
  const kept = new Set(STYLESHEETS.map((rel) => path.basename(shippedFileOf(rel))));
  for (const name of readdirSync(SHIPPED))
    if (name.endsWith('.gz') && !kept.has(name)) rmSync(path.join(SHIPPED, name));
  writeFileSync(SHIPPED_STAMPS, `${JSON.stringify(stamps, null, 2)}\n`);
}

/** A JSON line on stdout for `--progress` (the server reads it), nothing otherwise. */
const progress = process.argv.includes('--progress')
  ? (fields) => process.stdout.write(`${JSON.stringify(fields)}\n`)
  : () => {};

/** Compiles the stale stylesheets; returns how many were compiled. */
export async function compileRules(log = (msg) => process.stderr.write(`${msg}\n`)) {
  const outdated = STYLESHEETS.filter((rel) => !isFresh(rel));
  for (const rel of STYLESHEETS) if (!outdated.includes(rel)) touchStamp(rel);
  mkdirSync(OUT, { recursive: true });
  const stamps = shippedStamps();
  const stale = outdated.filter((rel) => !unpackShipped(rel, stamps));
  if (outdated.length > stale.length)
    log(`e-invoice rules: ${outdated.length - stale.length} shipped SEF file(s) unpacked into ${OUT}`);
  progress({ pending: stale });
  if (stale.length === 0 || process.argv.includes('--shipped-only')) return 0;
  const lanes = Math.max(1, Number(option('lanes', Math.min(2, availableParallelism()))) || 1);
  log(
    `e-invoice rules: compiling ${stale.length} schematron stylesheet(s) to SEF in ${OUT} (about 15 s each, ${lanes} at a time)…`,
  );
  const queue = [...stale];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let rel = queue.shift(); rel !== undefined; rel = queue.shift()) {
        const started = Date.now();
        await compile(rel);
        progress({ compiled: rel, ms: Date.now() - started });
      }
    }),
  );
  return stale.length;
}

// realpathSync: run through a linked folder (the tests' compiled mirror), argv[1] names the link.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = STYLESHEETS.filter((rel) => !isFresh(rel));
    if (stale.length > 0) {
      console.error(`stale: ${stale.join(', ')}`);
      process.exit(1);
    }
  } else {
    const started = Date.now();
    const count = await compileRules();
    console.error(`e-invoice rules: ${count} compiled in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (process.argv.includes('--ship')) {
      ship();
      console.error(`e-invoice rules: shipped in ${path.relative(root, SHIPPED)}`);
    }
  }
}
