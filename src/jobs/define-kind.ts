import { backoffTable, type JobDefinition, type JobKindOptions } from './registry.js';

/**
 * A job kind as a capability writes it: its name, pool and handler, and its retry policy as the attempts in
 * all and the table of waits between them (backoffTable), the form the kinds' policies take.
 */
interface JobKindSpec
  extends Omit<JobDefinition, 'options'>,
    Pick<JobKindOptions, 'maxAttempts' | 'abandon'> {
  /** The wait after each failed attempt in turn; the last one again once the table runs out (backoffTable). */
  retryDelaysMs: readonly number[];
}

/** The definition app.ts registers for a kind whose failed attempts wait the delays of a table. */
export function defineJobKind({ maxAttempts, retryDelaysMs, abandon, ...kind }: JobKindSpec): JobDefinition {
  return { ...kind, options: { maxAttempts, backoff: backoffTable(retryDelaysMs), abandon } };
}
