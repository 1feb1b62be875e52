import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

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

/** A worker pool's own settings; the threads' heap is capped, so a runaway input fails its task, not the server. */
export interface WorkerPoolOptions {
  compiled: URL;
  tsxEntry: URL;
  minThreads: number;
  maxThreads: number;
  idleTimeout: number;
  heapMb: number;
  workerData?: unknown;
  /** Required: Piscina emits 'error' when a worker dies outside a task, and an unheard 'error' ends the process. */
  onError: (err: unknown) => void;
}

/** A Piscina pool of the worker at `compiled` (or `tsxEntry`, see workerEntry). */
export function startWorkerPool<Task, Reply>(options: WorkerPoolOptions): Piscina<Task, Reply> {
  const entry = workerEntry(options.compiled, options.tsxEntry);
  const pool = new Piscina<Task, Reply>({
    filename: entry.filename,
    ...(entry.execArgv === undefined ? {} : { execArgv: entry.execArgv }),
    ...(options.workerData === undefined ? {} : { workerData: options.workerData }),
    minThreads: options.minThreads,
    maxThreads: options.maxThreads,
    idleTimeout: options.idleTimeout,
    resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
  });
  pool.on('error', options.onError);
  return pool;
}
