import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the pool's worker module is and the Node options its threads start with. */
export interface WorkerEntry {
  filename: string;
  /** undefined: inherit the process's own options. */
  execArgv: string[] | undefined;
}

/**
 * The compiled worker next to this module (the server bundle's dist/server/worker.js), else, when
 * running from src/ (tests, benchmarks, `quire` without a build), worker-tsx.mjs, which registers
 * tsx inside the new thread and loads worker.ts. Inheriting `--import tsx` instead is unreliable on
 * Node 20: about one worker in ten started while another was being terminated failed with
 * ERR_UNKNOWN_FILE_EXTENSION. So that thread starts without the process's loader options.
 */
export function liquidWorkerEntry(): WorkerEntry {
  const compiled = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href, execArgv: undefined };
  return { filename: new URL('./worker-tsx.mjs', import.meta.url).href, execArgv: [] };
}
