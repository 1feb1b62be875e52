import assert from 'node:assert/strict';
import { type AccessibilityCheck, type AccessibilityReport, accessibilityHeader } from './index.js';

/** Assertions on accessibility reports, for the tests of src/finishing/accessibility. */

const CHECK_IDS = [
  'structure_tree',
  'content_tagged',
  'figure_alt',
  'table_headers',
  'heading_levels',
  'language',
  'title_displayed',
  'fonts_embedded',
];

export function checkOf(report: AccessibilityReport, id: string): AccessibilityCheck {
  const check = report.checks.find((c) => c.id === id);
  assert.ok(check, `the report has a ${id} check`);
  return check;
}

/** A failed check, with the count and a detail matching `detail`. */
export function assertFails(check: AccessibilityCheck, count: number, detail?: RegExp): void {
  assert.equal(check.passed, false, `${check.id} fails: ${check.detail}`);
  assert.equal(check.count, count, `${check.id} count: ${check.detail}`);
  if (detail) assert.match(check.detail ?? '', detail);
}

export function assertPasses(check: AccessibilityCheck): void {
  assert.equal(check.passed, true, `${check.id} passes: ${check.detail}`);
  assert.equal(check.count, 0);
}

/** What every report must be, whatever the file: each check once, in order, and consistent totals. */
export function assertWellFormed(report: AccessibilityReport): void {
  assert.deepEqual(
    report.checks.map((c) => c.id),
    CHECK_IDS,
  );
  for (const check of report.checks) {
    assert.ok(Number.isInteger(check.count) && check.count >= 0, `${check.id} count ${check.count}`);
    assert.equal(check.passed, check.count === 0, `${check.id}: passed exactly when nothing was found`);
  }
  assert.equal(
    report.failures,
    report.checks.reduce((sum, c) => sum + c.count, 0),
  );
  assert.equal(report.ua1, report.checks.every((c) => c.passed) ? 'pass' : 'fail');
  assert.match(accessibilityHeader(report), /^(un)?tagged; ua1=(pass|fail\(\d+\))$/);
}

/** A well-formed report in which the check `id` fails as assertFails says and every other check passes. */
export function assertOnlyFails(
  report: AccessibilityReport,
  id: string,
  count: number,
  detail?: RegExp,
): void {
  assertWellFormed(report);
  for (const check of report.checks)
    if (check.id === id) assertFails(check, count, detail);
    else assertPasses(check);
}
