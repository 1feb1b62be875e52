import { AppError } from '../../shared/errors.js';

/** One problem found in `e_invoice`; `path` starts at `e_invoice` (SPEC "Validation failure"). */
export interface Issue {
  path: string;
  message: string;
}

/** SPEC: `details.issues` lists up to 50 entries; `details.more_issues` counts the rest. */
export const MAX_LISTED_ISSUES = 50;

/** Collects every issue instead of stopping at the first (SPEC: all problems are listed at once). */
export class Issues {
  readonly list: Issue[] = [];
  private readonly keys = new Set<string>();
  private readonly exact = new Set<string>();
  /** Every path with an issue at or below it: `a.b[2].c` marks `a`, `a.b`, `a.b[2]` and `a.b[2].c`. */
  private readonly touched = new Set<string>();

  add(path: string, message: string): void {
    const key = `${path}\u0000${message}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.exact.add(path);
    for (const m of path.matchAll(/[.[]/g)) this.touched.add(path.slice(0, m.index));
    this.touched.add(path);
    this.list.push({ path, message });
  }

  /** Adds the issue unless one is already recorded at or below `path` (avoids follow-up noise). */
  addOnce(path: string, message: string): void {
    if (!this.hasAt(path)) this.add(path, message);
  }

  get count(): number {
    return this.list.length;
  }

  /** True when an issue was recorded exactly at `path` (e.g. a required object that is missing). */
  hasExactly(path: string): boolean {
    return this.exact.has(path);
  }

  /** True when an issue was already recorded at `path` or anywhere below it. */
  hasAt(path: string): boolean {
    return this.touched.has(path);
  }
}

/** The 400 `invalid_e_invoice` error for a non-empty issue list. */
export function invalidEInvoice(issues: readonly Issue[]): AppError {
  const n = issues.length;
  return new AppError('invalid_e_invoice', `The e-invoice is invalid: ${n} ${n === 1 ? 'issue' : 'issues'}`, {
    issues: issues.slice(0, MAX_LISTED_ISSUES),
    more_issues: Math.max(0, n - MAX_LISTED_ISSUES),
  });
}
