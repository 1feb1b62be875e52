import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin', 'quire.mjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `quire` command as a child process (from the TypeScript sources) and never throws. */
export async function quire(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  try {
    const out = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, QUIRE_FROM_SOURCE: '1', QUIRE_LOG_LEVEL: 'warn', ...env },
      cwd: ROOT,
      timeout: 120_000,
    });
    return { code: 0, stdout: out.stdout, stderr: out.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
