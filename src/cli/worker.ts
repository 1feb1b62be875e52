import type { Config } from '../config/config.js';
import { UsageError } from './usage-error.js';

/** `quire worker`: background workers without the HTTP API. Wired to the job queue by the jobs capability. */
export async function runWorkerProcess(_config: Config, _print: (line: string) => void): Promise<void> {
  throw new UsageError('Background workers are not available in this build.');
}
