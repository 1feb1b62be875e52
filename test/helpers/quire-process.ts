import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from './wait.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin', 'quire.mjs');

export interface Started {
  child: ChildProcess;
  /** Its log lines (JSON unless QUIRE_LOG_FORMAT=pretty) or, for other commands, their output. */
  stdout: () => string;
  /** Its start-up announcements (serving address, keys, sign-in link: JSON records here, no terminal) and errors. */
  stderr: () => string;
  /** Everything the process wrote (stdout, then stderr): where tests look for the announced keys. */
  output: () => string;
  /** Resolves with the match once `ready` appears on stdout or stderr; rejects when the process exits first. */
  ready: Promise<RegExpExecArray>;
  exit: Promise<number | null>;
  /** Resolves once the process has exited and its output streams are closed (all its output is read). */
  closed: Promise<void>;
}

/**
 * Defaults for a test's Quire process: a free loopback port, warnings only, and short leases, so a test that
 * kills a process sees its jobs and render slots taken over in seconds rather than the production minute.
 * The worker's heartbeat runs every third of the lease, which keeps a slow render's job claimed meanwhile.
 * It renders in the run's shared Chromium server (scripts/run-tests.mjs), which spares the launch of a Chromium
 * per process (about 0.8 s of CPU each, and the suite starts about a hundred); a test about Chromium's own
 * start-up or shutdown passes OWN_CHROMIUM. Without a shared server (a file run alone), each launches its own.
 * One page, not warmed (PAGE_ECONOMY): a test that needs renders at once sets QUIRE_RENDER_POOL_SIZE itself.
 */
export const TEST_PROCESS_ENV: Readonly<Record<string, string>> = {
  QUIRE_PORT: '0',
  QUIRE_HOST: '127.0.0.1',
  QUIRE_LOG_LEVEL: 'warn',
  QUIRE_JOB_LEASE_MS: '5000',
  QUIRE_RENDER_LEASE_TTL_MS: '5000',
  QUIRE_RENDER_POOL_SIZE: '1',
  QUIRE_RENDER_PAGE_WARM_UP: '0',
  QUIRE_CHROMIUM_WS_ENDPOINT: process.env.QUIRE_CHROMIUM_WS_ENDPOINT ?? '',
};

/** For a process whose test is about Chromium itself (its launch, its logs, its shutdown): a Chromium of its own. */
export const OWN_CHROMIUM: Readonly<Record<string, string>> = { QUIRE_CHROMIUM_WS_ENDPOINT: '' };

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

let bundleCurrent: boolean | undefined;

/**
 * Whether dist/server (built by the bootstrap, stamped in dist/.build-stamp) is newer than every source file.
 * Processes start from the bundle then (no TypeScript loader: seconds faster each); sources edited since the
 * last bootstrap run from source instead, so a test never runs code older than the tree.
 */
export function bundleIsCurrent(): boolean {
  if (bundleCurrent === undefined) {
    // The repository's own sources, also when the tests run from the compiled mirror (scripts/compile-tests.mjs),
    // whose files are written at the start of every run.
    const repository = path.dirname(realpathSync(path.join(root, 'package.json')));
    const stamp = path.join(repository, 'dist', '.build-stamp');
    bundleCurrent = existsSync(stamp) && statSync(stamp).mtimeMs >= newestMtime(path.join(repository, 'src'));
  }
  return bundleCurrent;
}

/** The environment switch that runs `bin/quire.mjs` from the bundle when it is current, else from source. */
export function bundleOrSource(): { QUIRE_FROM_SOURCE: '0' | '1' } {
  return { QUIRE_FROM_SOURCE: bundleIsCurrent() ? '0' : '1' };
}

/**
 * `quire ...args` as a real child process (the built bundle when current, see bundleIsCurrent), its output
 * watched for `ready` (its start-up line). `env` comes on top of the test's environment and TEST_PROCESS_ENV.
 */
export function startQuire(env: NodeJS.ProcessEnv, args: string[], ready: RegExp): Started {
  const child = spawn(process.execPath, [bin, ...args], {
    env: {
      ...process.env,
      ...TEST_PROCESS_ENV,
      ...bundleOrSource(),
      ...env,
    },
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const readyPromise = new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const match = ready.exec(stdout) ?? ready.exec(stderr);
      if (match) resolve(match);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      check();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      check();
    });
    void exit.then((code) => {
      const match = ready.exec(stdout) ?? ready.exec(stderr);
      if (match) resolve(match);
      else reject(new Error(`quire ${args.join(' ')} exited with ${code}:\n${stdout}${stderr}`));
    });
  });
  readyPromise.catch(() => {});
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => `${stdout}${stderr}`,
    ready: readyPromise,
    exit,
    closed,
  };
}

/** Ends a started process at once (SIGKILL) and waits for it. */
export function kill(started: Started): Promise<void> {
  return signalAndWait(started, 'SIGKILL');
}

/** Asks a started process to shut down as in production (SIGTERM: it drains first) and waits for it to exit. */
export function terminate(started: Started): Promise<void> {
  return signalAndWait(started, 'SIGTERM');
}

async function signalAndWait(started: Started, signal: NodeJS.Signals): Promise<void> {
  if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill(signal);
  await started.exit;
}

/**
 * A fresh data directory for Quire processes and their environment there, on SQLite whatever the test pass:
 * QUIRE_DATABASE_URL is cleared so these processes do not inherit the PostgreSQL pass's database. `env` comes
 * on top; `remove` deletes the directory.
 */
export function sqliteDataDir(
  prefix: string,
  env: Readonly<Record<string, string>> = {},
): { dataDir: string; env: Record<string, string>; remove: () => void } {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dataDir,
    env: { QUIRE_DATA_DIR: dataDir, QUIRE_DATABASE_URL: '', ...env },
    remove: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** The arguments of `quire user create`: a one-time sign-in link for `email` as `role` in the team. */
export function userCreateArgs(email: string, teamId: string, role: string): string[] {
  return ['user', 'create', '--email', email, '--team', teamId, '--role', role];
}

/** The `quire serve` start-up line; its group 1 is the base URL. */
export const SERVING = /serving (http:\/\/\S+)\/v1/;

export interface Serving extends Started {
  /** The base URL, e.g. http://127.0.0.1:41234 (without /v1). */
  base: string;
  /** The default team's live key, printed on a fresh data directory's first start (null on later starts). */
  liveKey: string | null;
}

/**
 * `quire serve` with `env` (QUIRE_DATA_DIR at least), resolved once it serves. `QUIRE_DATABASE_URL` is cleared
 * unless given, so a test on SQLite does not inherit one. Rejects with the output if it exits first.
 */
export async function serveQuire(env: NodeJS.ProcessEnv): Promise<Serving> {
  const started = startQuire({ QUIRE_DATABASE_URL: '', ...env }, ['serve'], SERVING);
  const match = await started.ready;
  const liveKey = /Live key: (qk_live_\w+)/.exec(started.output())?.[1] ?? null;
  return { ...started, base: match[1] as string, liveKey };
}

/** `skip` of the PostgreSQL-only tests: the SQLite pass says why; the PostgreSQL pass (always in CI) runs them. */
export const NEEDS_POSTGRES = process.env.QUIRE_TEST_DATABASE_URL
  ? false
  : 'needs PostgreSQL: runs in the PostgreSQL pass (QUIRE_TEST_DATABASE_URL=postgres://127.0.0.1:5432/test)';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `quire` command as a child process (see startQuire) and never throws. */
export async function quire(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const started = startQuire({ QUIRE_LOG_LEVEL: 'warn', ...env }, args, /$^/);
  const timer = setTimeout(() => started.child.kill('SIGKILL'), 120_000);
  const code = await started.exit;
  await started.closed;
  clearTimeout(timer);
  return { code: code ?? -1, stdout: started.stdout(), stderr: started.stderr() };
}

/** process.exit called by the CLI under quireInProcess: unwinds main() instead of ending the test. */
class CliExit extends Error {
  constructor(readonly code: number) {
    super(`quire exited with ${code}`);
  }
}

let inProcessQueue: Promise<unknown> = Promise.resolve();

/**
 * The CLI's main(argv) in this process, for commands whose output is all a test checks (help, version,
 * settings): no child process and no module loading per call. `env` is applied to process.env for the call
 * only; stdout and stderr text are captured (binary writes, such as the test runner's own, pass through) and
 * process.exit becomes the result's code. Calls run one at a time, since they share the process.
 */
export function quireInProcess(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const result = inProcessQueue.then(() => runInProcess(env, args));
  inProcessQueue = result.catch(() => {});
  return result;
}

async function runInProcess(env: Record<string, string>, args: string[]): Promise<CliResult> {
  const { main } = await import('../../src/cli/main.js');
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const { exit } = process;
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const out = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') =>
    function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      if (typeof chunk !== 'string') return Reflect.apply(writes[stream], this, [chunk, ...rest]) as boolean;
      out[stream] += chunk;
      return true;
    } as typeof process.stdout.write;
  Object.assign(process.env, env);
  process.exit = ((code?: number) => {
    throw new CliExit(code ?? 0);
  }) as typeof process.exit;
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  let code = 0;
  try {
    await main(args);
  } catch (err) {
    if (!(err instanceof CliExit)) throw err;
    code = err.code;
  } finally {
    process.exit = exit;
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { code, ...out };
}

/**
 * Waits until the served process renders on at least one page (its /metrics gauge; start it with
 * QUIRE_METRICS=public), instead of a sleep that assumes how fast a request reaches Chromium.
 */
export async function waitForRendering(served: Serving): Promise<void> {
  await waitFor('a render to hold a page', async () => {
    const text = await fetch(`${served.base}/metrics`).then((r) => (r.ok ? r.text() : ''));
    const busy = Number(/^quire_pool_pages_busy (\d+)/m.exec(text)?.[1] ?? 0);
    return busy > 0 ? true : null;
  });
}
