// Types of scripts/test-plan.mjs for the TypeScript test that checks it (test/unit/test-plan.test.ts).
export interface PlanGroup {
  paths: string[];
  reason: string;
}
export const root: string;
export const POSTGRES_PASS: PlanGroup[];
export const SQLITE_ONLY: PlanGroup[];
export function unitFiles(): string[];
export function integrationFiles(): string[];
export function opensDatabase(file: string): boolean;
export function classify(files: string[]): {
  postgres: string[];
  sqliteOnly: string[];
  unclassified: string[];
};
export function unclassifiedMessage(unclassified: string[]): string;
