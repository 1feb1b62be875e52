import { existsSync } from 'node:fs';

/**
 * The memory limit of a program run on a file a client sent (qpdf reading a merge source, pdftoppm
 * rasterising pages): its address space. Past it the program's allocation fails and it exits, which
 * costs that request only; without it a hostile file (a huge page, a stream that inflates without end)
 * could take the machine's memory from every other request.
 */
export const SUBPROCESS_MEMORY_BYTES = 1024 * 1024 * 1024;

const PRLIMIT = '/usr/bin/prlimit';
/** util-linux's exit statuses of prlimit itself when it could not start the program (126 cannot run, 127 not found). */
const NOT_STARTED = new Set([126, 127]);

export interface LimitedCommand {
  file: string;
  args: string[];
  /** Started through prlimit: its exit status may be prlimit's own (see notStarted). */
  limited: boolean;
}

/** `program args` under SUBPROCESS_MEMORY_BYTES through `prlimit --as` where util-linux has it (Debian always does). */
export function underMemoryLimit(program: string, args: string[]): LimitedCommand {
  if (!existsSync(PRLIMIT)) return { file: program, args, limited: false };
  return { file: PRLIMIT, args: [`--as=${SUBPROCESS_MEMORY_BYTES}`, program, ...args], limited: true };
}

/**
 * Whether a limited command's exit status says the program never ran (missing or not executable): a
 * fault of the server's installation, not of the file, as ENOENT is when it is started directly.
 */
export function notStarted(command: LimitedCommand, exitCode: number | null): boolean {
  return command.limited && exitCode !== null && NOT_STARTED.has(exitCode);
}

/** What a refusal says of `subject` (a file or a step) whose program went past its time or memory limit. */
export function overLimits(subject: string, timeMs: number): string {
  return `${subject} took longer than ${timeMs / 1000} s or needed too much memory`;
}
