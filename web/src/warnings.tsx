/** Render warnings as a user reads them: a list of sentences, never raw JSON, nothing when there are none. */

/**
 * A warning as a sentence: "code: message", or for warnings that name a place instead of a message
 * (`{code: "missing_variable", path: "seller.name"}`) "code: seller.name" — never raw JSON.
 */
export function warningText(warning: unknown): string {
  if (typeof warning === 'string') return warning;
  if (!warning || typeof warning !== 'object') return String(warning);
  const { code, message, ...rest } = warning as Record<string, unknown>;
  const where = Object.entries(rest)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => (k === 'path' ? String(v) : `${k.replace(/_/g, ' ')} ${String(v)}`))
    .join(', ');
  const text = [message, where]
    .filter((part) => part !== undefined && part !== '')
    .map(String)
    .join(' — ');
  return code ? `${String(code)}: ${text}` : text;
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
