// Types of scripts/test-groups.mjs for the TypeScript test that checks it (test/unit/test-groups.test.ts).
import type { PlanGroup } from './test-plan.d.mts';

export const UNGROUPED: PlanGroup[];
export function groupable(root: string, file: string, costMs: number): boolean;
export function planProcesses(root: string, files: string[], cost: (file: string) => number): string[][];
export function groupEntrySource(memberUrls: string[]): string;
