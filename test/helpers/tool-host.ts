import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * promisify(execFile) for the tests' PDF tools (pdftotext, pdfinfo, qpdf…), run by one small child process
 * (tool-host.mjs) instead of by the test process itself: see there why. Resolves and rejects as execFile does:
 * stdout and stderr as text, or as bytes with `encoding: 'buffer'`; a failure carries code, stdout, stderr.
 */
export function runTool(
  file: string,
  args: string[],
  options: { maxBuffer?: number; encoding: 'buffer' },
): Promise<{ stdout: Buffer; stderr: Buffer }>;
export function runTool(
  file: string,
  args: string[],
  options?: { maxBuffer?: number; encoding?: 'utf8' },
): Promise<{ stdout: string; stderr: string }>;
export function runTool(
  file: string,
  args: string[],
  options: { maxBuffer?: number; encoding?: 'utf8' | 'buffer' } = {},
): Promise<{ stdout: string | Buffer; stderr: string | Buffer }> {
  const id = nextId++;
  const child = host();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, encoding: options.encoding ?? 'utf8' });
    child.channel?.ref();
    child.send({ id, file, args, maxBuffer: options.maxBuffer ?? 1024 * 1024 });
  });
}

interface Waiting {
  resolve(output: { stdout: string | Buffer; stderr: string | Buffer }): void;
  reject(error: Error): void;
  encoding: 'utf8' | 'buffer';
}

interface Reply {
  id: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  error: { message: string; code?: number | string; signal?: string } | null;
}

const pending = new Map<number, Waiting>();
let nextId = 0;
let child: ChildProcess | undefined;

function host(): ChildProcess {
  if (child?.connected) return child;
  const started = fork(fileURLToPath(new URL('./tool-host.mjs', import.meta.url)), [], {
    // Not this process's --import hooks (the test runner's guards), nor its memory.
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, QUIRE_TOOL_HOST_FOR: process.argv[1] },
  });
  started.on('message', (reply: Reply) => settle(reply));
  started.on('exit', (code, signal) => {
    if (child === started) child = undefined;
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(new Error(`the tool host exited (${signal ?? code}) before answering`));
    }
  });
  // Neither the process nor its channel keeps a test process alive when no tool is running.
  started.unref();
  started.channel?.unref();
  child = started;
  return started;
}

function settle({ id, stdout, stderr, error }: Reply): void {
  const waiting = pending.get(id);
  if (!waiting) return;
  pending.delete(id);
  if (pending.size === 0) child?.channel?.unref();
  const decode = (bytes: Uint8Array) => {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return waiting.encoding === 'buffer' ? buffer : buffer.toString('utf8');
  };
  if (error === null) {
    waiting.resolve({ stdout: decode(stdout), stderr: decode(stderr) });
    return;
  }
  waiting.reject(
    Object.assign(new Error(error.message), {
      code: error.code,
      signal: error.signal,
      stdout: decode(stdout),
      stderr: decode(stderr),
    }),
  );
}
