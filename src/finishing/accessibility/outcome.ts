/** What a check found: its failures, and a sentence naming them (or why nothing applied). */
export interface Outcome {
  count: number;
  detail?: string;
}

/** At most `shown` items of a list for a detail sentence, with how many more there are. */
export function listed(items: string[], shown = 5): string {
  const head = items.slice(0, shown).join('; ');
  return items.length > shown ? `${head}; and ${items.length - shown} more` : head;
}
