// Compiles the TypeScript of src/ and test/ into a mirror of the repository under .tmp/compiled/<pid>/, so the
// test processes run plain JavaScript instead of loading every module through tsx. tsx's loader hooks cost about
// 0.7 s of CPU in each test process and each worker thread even for JavaScript (measured: importing the app takes
// 1.7 s of CPU under `--import tsx`, 1.0 s compiled), and the suite starts a few hundred of them.
//
// The mirror: src/ and test/ are real folders in which every .ts becomes a .js (esbuild, one file at a time, no
// bundling: the same transform tsx makes) and every other file is a hard link to the original (so a test that
// rewrites a fixture in place writes the original); every other top-level entry of the repository is a symbolic
// link, so paths computed from a module (`../..`, package.json, dist/, tools/, bench/) lead to the real files.
// Compiled files keep their source's mtime (the process helper compares sources with the bundle's build stamp).
// test/visual/out/ is a link to the real folder, where failure screenshots are looked for.
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const COMPILED = path.join(root, '.tmp', 'compiled');
/**
 * Folders whose TypeScript the tests import (the client's sources by its tests, the dashboard's plain .ts
 * helpers by unit tests; its .tsx stays for vite).
 */
const MIRRORED = ['src', 'test', path.join('clients', 'typescript', 'src'), path.join('web', 'src')];
/** Folders written by tests for people to read: linked, not mirrored. */
const LINKED_OUTPUTS = [path.join('test', 'visual', 'out')];

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Mirrors left by runs that have ended (a killed run cannot remove its own). */
function removeStaleMirrors() {
  if (!existsSync(COMPILED)) return;
  for (const name of readdirSync(COMPILED)) {
    if (!/^\d+$/.test(name) || !alive(Number(name))) {
      rmSync(path.join(COMPILED, name), { recursive: true, force: true });
    }
  }
}

function mirrorFolder(from, to, sources) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    const relative = path.relative(root, source);
    if (LINKED_OUTPUTS.includes(relative)) {
      symlinkSync(source, target);
    } else if (entry.isDirectory()) {
      mirrorFolder(source, target, sources);
    } else if (entry.isFile()) {
      // The .ts itself is kept too: a few tests start `node --import tsx <file>.ts` beside them.
      linkSync(source, target);
      if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) sources.push(relative);
    }
  }
}

/**
 * The folders above a mirrored one are real folders of links; everything beside them is a link; the mirrored
 * folders are copied (mirrorFolder).
 */
function linkAround(from, to, sources) {
  for (const entry of readdirSync(from)) {
    const source = path.join(from, entry);
    const relative = path.relative(root, source);
    if (entry === '.git') continue;
    if (MIRRORED.includes(relative)) mirrorFolder(source, path.join(to, entry), sources);
    else if (MIRRORED.some((m) => m.startsWith(relative + path.sep))) {
      mkdirSync(path.join(to, entry));
      linkAround(source, path.join(to, entry), sources);
    } else symlinkSync(source, path.join(to, entry));
  }
}

/**
 * Builds a fresh mirror for this process and returns its root; `remove()` deletes it. Every compiled file is
 * a plain ES module beside its source's hard link.
 */
export function compileTests() {
  removeStaleMirrors();
  const mirror = path.join(COMPILED, String(process.pid));
  rmSync(mirror, { recursive: true, force: true });
  mkdirSync(mirror, { recursive: true });
  for (const output of LINKED_OUTPUTS) mkdirSync(path.join(root, output), { recursive: true });
  const sources = [];
  linkAround(root, mirror, sources);
  buildSync({
    entryPoints: sources.map((s) => path.join(root, s)),
    outdir: mirror,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // tsx keeps function names too; the print mode's in-page helpers are written for either.
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'error',
  });
  // The source maps too: a newer file anywhere under the mirror's src/ made the process helper take the bundle
  // for stale, and every spawned `quire` ran from source through tsx (about 2 s more CPU each).
  for (const source of sources) {
    const { atime, mtime } = statSync(path.join(root, source));
    const compiledFile = path.join(mirror, source.replace(/\.ts$/, '.js'));
    utimesSync(compiledFile, atime, mtime);
    utimesSync(`${compiledFile}.map`, atime, mtime);
  }
  return {
    root: mirror,
    /** The compiled counterpart of a test file of the repository. */
    file: (testFile) => path.join(mirror, path.relative(root, testFile)).replace(/\.ts$/, '.js'),
    remove: () => rmSync(mirror, { recursive: true, force: true }),
  };
}

// `node scripts/compile-tests.mjs` builds a mirror and prints its root (to look at what the tests run).
if (process.argv[1] === new URL(import.meta.url).pathname) {
  const started = Date.now();
  const { root: mirror } = compileTests();
  console.log(`${mirror} (${Date.now() - started} ms)`);
}
