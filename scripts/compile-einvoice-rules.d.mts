// Types of scripts/compile-einvoice-rules.mjs for the TypeScript test that uses it (test/unit/shipped-rules.test.ts).
export const STYLESHEETS: string[];
export const SHIPPED: string;
export function sefPathOf(rel: string): string;
export function stampOf(rel: string): string;
export function shippedStamps(): Record<string, string>;
export function compileRules(log?: (msg: string) => void): Promise<number>;
