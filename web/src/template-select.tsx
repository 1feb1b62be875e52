import type { Schemas } from './api';

/**
 * A choice of the team's templates (templateChoices: all of them, up to its limit), "Choose a template…"
 * first; the last option says so when the list was cut.
 */
export function TemplateSelect({
  id,
  value,
  onChange,
  choices,
  required = false,
}: {
  id: string;
  value: string;
  onChange: (templateId: string) => void;
  choices: { data: Schemas['TemplateSummary'][]; truncated: boolean } | null | undefined;
  required?: boolean;
}) {
  return (
    <select id={id} required={required} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">Choose a template…</option>
      {choices?.data.map((t) => (
        <option key={t.id} value={t.id}>
          {t.name}
        </option>
      ))}
      {choices?.truncated && (
        <option value="" disabled>
          Only the first {choices.data.length} templates are listed
        </option>
      )}
    </select>
  );
}
