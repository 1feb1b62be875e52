// Installs WeasyPrint (a benchmark peer, the usual non-Chromium HTML → PDF engine) from Debian's `weasyprint`
// package, once: a second run finds it installed and does nothing. Not part of `npm install` / `npm test`,
// never a dependency of Quire. apt-get runs non-interactively, as root or through `sudo -n` (no password
// prompt: a bench must not hang waiting for one). Debian's package puts the module in the system Python's
// dist-packages, so the driver (server.py) runs with /usr/bin/python3, not whatever python3 is first on PATH.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The system Python that Debian's python3-weasyprint is installed for. */
export const SYSTEM_PYTHON = '/usr/bin/python3';
/** Debian's command-line tool, for the one per-document CLI figure. */
export const WEASYPRINT_CLI = '/usr/bin/weasyprint';

/** True when the CLI exists and the system Python imports the module. */
export function weasyprintInstalled() {
  if (!existsSync(WEASYPRINT_CLI) || !existsSync(SYSTEM_PYTHON)) return false;
  return spawnSync(SYSTEM_PYTHON, ['-c', 'import weasyprint'], { stdio: 'ignore' }).status === 0;
}

/** `apt-get ARGS` as root, or through `sudo -n` when the bench runs as another user. */
function aptGet(args) {
  const root = process.getuid?.() === 0;
  const [command, rest] = root ? ['apt-get', args] : ['sudo', ['-n', 'apt-get', ...args]];
  execFileSync(command, rest, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

export function installWeasyprint() {
  if (weasyprintInstalled()) return;
  console.error("bench: installing WeasyPrint (Debian's weasyprint package, apt-get, once)…");
  const install = ['install', '-y', '--no-install-recommends', 'weasyprint'];
  try {
    aptGet(install);
  } catch {
    // A fresh container often has no package lists yet: fetch them once and try again.
    aptGet(['update']);
    aptGet(install);
  }
  if (!weasyprintInstalled()) throw new Error(`WeasyPrint installed, but ${SYSTEM_PYTHON} cannot import it`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) installWeasyprint();
