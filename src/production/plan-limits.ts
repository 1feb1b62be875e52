import type { Caller, UsagePort } from './ports.js';

/**
 * Live documents reserved before anything is rendered (spec: plan_limit_reached, spending_cap_reached):
 * `count` at once or none (a batch is refused whole). Test documents are never counted, so they reserve
 * nothing. Returns the period the documents count in, or null for test documents.
 */
export async function reserveLiveDocuments(
  usage: UsagePort,
  caller: Caller,
  input: { test: boolean; count: number; at: Date },
): Promise<string | null> {
  if (input.test || input.count === 0) return null;
  const { period } = await usage.reserve(caller.teamId, input.count, input.at);
  return period;
}
