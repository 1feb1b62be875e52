// Types of scripts/test-scheduler.mjs for the TypeScript test that checks it (test/unit/test-scheduler.test.ts).
export interface ScheduledJob {
  pass: string;
  cost: number;
}
export function nextJob<J extends { pass: string }>(
  waiting: J[],
  runningByPass: Map<string, number>,
  limits: Record<string, number>,
): J | undefined;
export function runScheduled<J extends ScheduledJob, T>(
  jobs: J[],
  options: { slots: number; limits?: Record<string, number>; start: (job: J) => Promise<T> },
): Promise<T[]>;
