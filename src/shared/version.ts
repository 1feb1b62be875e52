import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.js';

let version: string | undefined;
let commit: string | null | undefined;

/** Quire's version from package.json (read once). */
export function quireVersion(): string {
  version ??= (
    JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }
  ).version;
  return version;
}

/**
 * The commit this build came from, when known: a `COMMIT` file beside package.json (the container build
 * writes one; images carry no .git), else `git rev-parse` in a checkout, else null. Read once.
 */
export function quireCommit(): string | null {
  if (commit !== undefined) return commit;
  commit = readCommitFile() ?? gitHead();
  return commit;
}

function readCommitFile(): string | null {
  try {
    return readFileSync(path.join(packageRoot(), 'COMMIT'), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

function gitHead(): string | null {
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: packageRoot(),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.toString().trim() || null;
  } catch {
    return null;
  }
}
