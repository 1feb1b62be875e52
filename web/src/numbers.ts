/** Numbers as the user's locale writes them (Intl): grouped counts and amounts with their currency. */

const counts = new Intl.NumberFormat(undefined);

/** "200,000" (or "200 000", "200.000": the browser's locale). */
export function formatCount(n: number): string {
  return counts.format(n);
}

/** Spec: Usage amounts are US cents. */
const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

/** "$12.50" / "12,50 $US": cents of US dollars in the user's locale. */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** "3 May" / "May 3": a UTC day (YYYY-MM-DD) as a short label. */
export function formatDay(
  day: string,
  options: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' },
): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { ...options, timeZone: 'UTC' });
}
