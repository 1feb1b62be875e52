// Installs jsreport (the benchmark peer) into bench/jsreport/node_modules from its own package-lock.json,
// once: a second run finds it installed and does nothing. Not part of `npm install` / `npm test`.
// PUPPETEER_SKIP_DOWNLOAD: chrome-pdf drives Debian's Chromium, no browser is downloaded.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** True when node_modules holds exactly what package-lock.json names (npm writes its copy on install). */
export function jsreportInstalled() {
  const installed = path.join(here, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return false;
  const want = JSON.parse(readFileSync(path.join(here, 'package-lock.json'), 'utf8')).packages ?? {};
  const have = JSON.parse(readFileSync(installed, 'utf8')).packages ?? {};
  // Optional packages for other platforms (fsevents) are never installed here.
  return Object.entries(want).every(
    ([name, meta]) => name === '' || meta.optional || have[name]?.version === meta.version,
  );
}

export function installJsreport() {
  if (jsreportInstalled()) return;
  console.error('bench: installing jsreport into bench/jsreport (npm ci, once)…');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: here,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) installJsreport();
