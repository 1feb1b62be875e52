import type { Schemas } from '../../api';

export type AccessibilityReport = NonNullable<Schemas['TemplatePreviewPages']['accessibility']>;

/**
 * The draft preview's accessibility report (the machine-checkable PDF/UA-1 conditions): one line when every
 * check passes, else each failed condition with its count and what was found, so a missing `alt` or a
 * skipped heading level is fixed in the editor rather than found by a reader.
 */
export function AccessibilitySummary({ report }: { report: AccessibilityReport | undefined }) {
  if (!report) return null;
  const failed = report.checks.filter((check) => !check.passed);
  if (failed.length === 0)
    return (
      <p class="accessibility-summary passed" data-testid="accessibility-summary" role="status">
        Accessibility: every PDF/UA-1 check Quire can make passes.
      </p>
    );
  return (
    <div class="accessibility-summary warnings" data-testid="accessibility-summary">
      <p>
        Accessibility: {report.failures} problem{report.failures === 1 ? '' : 's'} for screen readers
        {report.tagged ? '' : ' (the PDF is not tagged)'}:
      </p>
      <ul>
        {failed.map((check) => (
          <li key={check.id} data-check={check.id}>
            {check.title} — {check.count} found{check.detail ? `: ${check.detail}` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}
