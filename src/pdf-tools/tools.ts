import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../shared/errors.js';
import { notStarted, underMemoryLimit } from '../shared/memory-limit.js';

const run = promisify(execFile);

/**
 * Budgets of one program (qpdf, pdfinfo, pdffonts, pdfsig, pdftotext) run over a caller's PDF: wall-clock
 * time and, through prlimit, address space (src/shared/memory-limit.ts). The programs parse the file in
 * their own process, so a hostile one costs its sender's request only and never this thread.
 */
export const TOOL_LIMITS = {
  timeMs: 15_000,
  /** qpdf writing a transformed file (page selection, rotation, decryption). */
  writeMs: 30_000,
  outputBytes: 32 * 1024 * 1024,
} as const;

/** The time one run of a tool over a caller's file may take: reading it, and writing a transformed copy. */
export interface ToolBudget {
  readMs: number;
  writeMs: number;
}

/** The budget for a read limit (config pdfToolTimeoutMs, QUIRE_PDF_TOOL_TIMEOUT_MS); writing gets twice as long. */
export function toolBudget(readMs: number = TOOL_LIMITS.timeMs): ToolBudget {
  return { readMs, writeMs: readMs * (TOOL_LIMITS.writeMs / TOOL_LIMITS.timeMs) };
}

/** A private temporary folder for the files of one request, removed afterwards. */
export async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-pdf-tools-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes `bytes` to `name` in `dir` (mode 0600) and returns its path. */
export async function fileIn(dir: string, name: string, bytes: Buffer | string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes, { mode: 0o600 });
  return file;
}

export interface ToolFailure {
  /** Killed by the time limit, or out of memory. */
  overBudget: boolean;
  stderr: string;
  exitCode: number | null;
}

/** A program's failure, as the callers judge it (the file's fault or the server's). */
export class ToolFailed extends Error {
  constructor(
    readonly tool: string,
    readonly failure: ToolFailure,
  ) {
    super(`${tool} failed (${failure.exitCode ?? 'killed'})`);
  }
}

/**
 * `program args` under the memory limit and `timeMs`; its stdout. Exit status 3 of qpdf is "warnings only"
 * (the output was written); `okExit` lists other statuses that are answers, not failures (pdfsig's 2: no
 * signatures).
 */
export async function runTool(
  program: string,
  args: string[],
  options: { timeMs?: number; okExit?: number[] } = {},
): Promise<string> {
  const command = underMemoryLimit(program, args);
  try {
    const { stdout } = await run(command.file, command.args, {
      timeout: options.timeMs ?? TOOL_LIMITS.timeMs,
      maxBuffer: TOOL_LIMITS.outputBytes,
      encoding: 'utf8',
    });
    return stdout;
  } catch (err) {
    const e = err as { code?: unknown; killed?: boolean; stderr?: unknown; stdout?: unknown };
    const exitCode = typeof e.code === 'number' ? e.code : null;
    if (e.code === 'ENOENT' || notStarted(command, exitCode))
      throw new Error(`${program} is not installed (poppler-utils and qpdf are Quire's Debian packages)`);
    if (exitCode !== null && (options.okExit ?? []).includes(exitCode) && typeof e.stdout === 'string')
      return e.stdout;
    if (program === 'qpdf' && exitCode === 3 && typeof e.stdout === 'string') return e.stdout;
    const stderr = typeof e.stderr === 'string' ? e.stderr : '';
    if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
      throw new AppError(
        'document_too_large',
        `The PDF's ${program} output is over the limit: send a smaller PDF.`,
      );
    const overBudget = e.killed === true || stderr.includes('bad_alloc') || stderr.includes('memory');
    throw new ToolFailed(program, { overBudget, stderr, exitCode });
  }
}
