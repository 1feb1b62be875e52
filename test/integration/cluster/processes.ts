import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin', 'quire.mjs');

export interface Started {
  child: ChildProcess;
  stdout: () => string;
  /** Everything the process wrote, for failure messages. */
  output: () => string;
  /** Resolves with the stdout match once `ready` appears; rejects when the process exits first. */
  ready: Promise<RegExpExecArray>;
  exit: Promise<number | null>;
}

/** `quire ...args` from source as a real child process, its output watched for `ready` (its start-up line). */
export function startQuire(env: NodeJS.ProcessEnv, args: string[], ready: RegExp): Started {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, QUIRE_FROM_SOURCE: '1', ...env },
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const readyPromise = new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = ready.exec(stdout);
      if (match) resolve(match);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    void exit.then((code) => {
      const match = ready.exec(stdout);
      if (match) resolve(match);
      else reject(new Error(`quire ${args.join(' ')} exited with ${code}:\n${stdout}${stderr}`));
    });
  });
  readyPromise.catch(() => {});
  return { child, stdout: () => stdout, output: () => `${stdout}${stderr}`, ready: readyPromise, exit };
}

/** Ends a started process at once (SIGKILL) and waits for it. */
export async function kill(started: Started): Promise<void> {
  if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
  await started.exit;
}

/** The `quire serve` start-up line; its group 1 is the base URL. */
export const SERVING = /serving (http:\/\/\S+)\/v1/;

/** `skip` of the PostgreSQL-only tests: the SQLite pass says why; the PostgreSQL pass (always in CI) runs them. */
export const NEEDS_POSTGRES = process.env.QUIRE_TEST_DATABASE_URL
  ? false
  : 'needs PostgreSQL: runs in the PostgreSQL pass (QUIRE_TEST_DATABASE_URL=postgres://127.0.0.1:5432/test)';
