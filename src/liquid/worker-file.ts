import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the pool's worker module is and the Node options its threads need to load it. */
export interface WorkerEntry {
  filename: string;
  /** undefined: inherit the process's own options. */
  execArgv: string[] | undefined;
}

/** A worker runs a module file, not this process's loaded code: TypeScript sources need tsx's loader there too. */
function withTsxLoader(execArgv: string[]): string[] {
  if (execArgv.some((arg) => arg.includes('tsx'))) return execArgv;
  let loader = 'tsx';
  try {
    loader = import.meta.resolve('tsx');
  } catch {
    // Resolved by Node from the working directory instead.
  }
  return [...execArgv, '--import', loader];
}

/**
 * The compiled worker next to this module (`npm run build` → dist/liquid/worker.js), else the
 * TypeScript source beside it when running from src/ under tsx (tests, `npm run bench`).
 */
export function liquidWorkerEntry(): WorkerEntry {
  const compiled = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href, execArgv: undefined };
  const source = new URL('./worker.ts', import.meta.url);
  return { filename: source.href, execArgv: withTsxLoader(process.execArgv) };
}
