import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where a pool's worker module is and the Node options its threads start with. */
export interface WorkerEntry {
  filename: string;
  /** undefined: inherit the process's own options. */
  execArgv: string[] | undefined;
}

/**
 * The compiled worker (`compiled`, an entry of the server bundle in dist/server/) when it exists, else,
 * when running from src/ (tests, benchmarks, `quire` without a build), `tsxEntry`: a .mjs file that
 * registers tsx inside the new thread and loads the worker's .ts module. Inheriting `--import tsx`
 * instead is unreliable on Node 20: about one worker in ten started while another was being terminated
 * failed with ERR_UNKNOWN_FILE_EXTENSION. So that thread starts without the process's loader options.
 */
export function workerEntry(compiled: URL, tsxEntry: URL): WorkerEntry {
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href, execArgv: undefined };
  return { filename: tsxEntry.href, execArgv: [] };
}
