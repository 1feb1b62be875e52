/**
 * The accessibility report's shape and its header, apart from the checks (index.ts): what the API shows
 * and sends, importable without loading pdf-lib.
 */

export interface AccessibilityCheck {
  id: string;
  title: string;
  passed: boolean;
  /** Failures found; 0 exactly when passed. */
  count: number;
  detail?: string;
}

export interface AccessibilityReport {
  tagged: boolean;
  ua1: 'pass' | 'fail';
  /** The failures of all checks together (the sum of their counts). */
  failures: number;
  checks: AccessibilityCheck[];
}

/** The report in one header value: "tagged; ua1=pass", "tagged; ua1=fail(3)" or "untagged; ua1=fail(5)". */
export function accessibilityHeader(report: AccessibilityReport): string {
  const verdict = report.ua1 === 'pass' ? 'pass' : `fail(${report.failures})`;
  return `${report.tagged ? 'tagged' : 'untagged'}; ua1=${verdict}`;
}
