/** An invoice table row: label, value printed, and when it shows (default: when the value is set). */
type Row = readonly [label: string, value: string, shownIf?: string];

/** Rows that are left out when their value is empty, one per line of the template. */
export function rows(list: readonly Row[]): string {
  return list
    .map(
      ([label, value, shownIf = value]) =>
        `{% if ${shownIf} %}<tr><th>${label}</th><td>{{ ${value} | escape }}</td></tr>{% endif %}`,
    )
    .join('\n    ');
}
