/** Render warnings as a user reads them: a list of sentences, never raw JSON, nothing when there are none. */

/** A warning as the API wrote it (an object with a code and message, or any JSON). */
export function warningText(warning: unknown): string {
  if (warning && typeof warning === 'object' && 'message' in warning) {
    const w = warning as { code?: unknown; message?: unknown };
    return w.code ? `${String(w.code)}: ${String(w.message)}` : String(w.message);
  }
  return typeof warning === 'string' ? warning : JSON.stringify(warning);
}

/** The `X-Warnings` header (a JSON array, spec: POST /pdf responses) as a list; unreadable text stays text. */
export function parseWarningsHeader(header: string | null): unknown[] {
  if (!header) return [];
  try {
    const parsed: unknown = JSON.parse(header);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [header];
  }
}

/** Nothing for no warnings; else a labelled list. */
export function WarningList({
  warnings,
  label = 'Warnings',
}: {
  warnings: readonly unknown[];
  label?: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <div class="warnings" data-testid="warnings">
      <p>{label}:</p>
      <ul>
        {warnings.map((w, i) => (
          <li key={i}>{warningText(w)}</li>
        ))}
      </ul>
    </div>
  );
}
