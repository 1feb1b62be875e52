import { useState } from 'preact/hooks';
import { api, call, type Schemas, type Session } from '../api';
import { Busy, ErrorText, Page, useLoad } from '../ui';

type Usage = Schemas['Usage'];
type Doc = Schemas['Document'];
/** The documents log is paged by time; the chart reads at most this many pages of 100. */
const MAX_PAGES = 10;

/** Documents per UTC day from `start` to today (the API has no per-day totals, so the log is counted). */
async function documentsPerDay(start: string): Promise<{ day: string; count: number }[]> {
  const docs: Doc[] = [];
  let before: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await call(
      api.GET('/documents', { params: { query: { limit: 100, ...(before ? { before } : {}) } } }),
    );
    docs.push(...page.data);
    const last = page.data.at(-1);
    if (!page.next_before || !last || last.created_at < start) break;
    before = page.next_before;
  }
  const counts = new Map<string, number>();
  for (const d of docs)
    if (d.created_at >= start)
      counts.set(d.created_at.slice(0, 10), (counts.get(d.created_at.slice(0, 10)) ?? 0) + 1);
  const days: { day: string; count: number }[] = [];
  const today = new Date().toISOString().slice(0, 10);
  for (let t = new Date(start.slice(0, 10)); days.length < 62; t.setUTCDate(t.getUTCDate() + 1)) {
    const day = t.toISOString().slice(0, 10);
    days.push({ day, count: counts.get(day) ?? 0 });
    if (day >= today) break;
  }
  return days;
}

function money(cents: number): string {
  return `${(cents / 100).toFixed(2)}`;
}

export function UsagePage({ session }: { session: Session }) {
  const usage = useLoad(() => call(api.GET('/account/usage')), []);
  const chart = useLoad(
    async () => (usage.data ? documentsPerDay(usage.data.period_start) : null),
    [usage.data],
  );
  return (
    <Page title="Usage">
      {usage.loading && <Busy label="Loading usage…" />}
      <ErrorText error={usage.error} />
      {usage.data && <UsageNumbers usage={usage.data} />}
      <h2>Documents per day (this period)</h2>
      {chart.loading && <Busy label="Counting documents…" />}
      <ErrorText error={chart.error} />
      {chart.data && <DayChart days={chart.data} />}
      {usage.data && session.role === 'owner' && <SpendingCap usage={usage.data} onSaved={usage.reload} />}
    </Page>
  );
}

function UsageNumbers({ usage }: { usage: Usage }) {
  return (
    <dl class="numbers">
      <dt>Plan</dt>
      <dd>{usage.plan}</dd>
      <dt>Period</dt>
      <dd>
        {usage.period_start.slice(0, 10)} to {usage.period_end.slice(0, 10)}
      </dd>
      <dt>Documents used</dt>
      <dd data-testid="docs-used">
        {usage.docs_used} of {usage.docs_included} included
        {usage.rollover_docs > 0 && ` (+${usage.rollover_docs} rolled over)`}
      </dd>
      <dt>Overage</dt>
      <dd>
        {usage.overage_docs} documents, {money(usage.overage_cost_cents)}
      </dd>
      <dt>Spending cap</dt>
      <dd>{usage.spending_cap_cents === null ? 'none' : money(usage.spending_cap_cents)}</dd>
      {usage.overage_blocked_reason && (
        <>
          <dt>Blocked</dt>
          <dd>{usage.overage_blocked_reason}</dd>
        </>
      )}
    </dl>
  );
}

function DayChart({ days }: { days: { day: string; count: number }[] }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  return (
    <figure>
      <ol class="chart" aria-label="Documents per day">
        {days.map((d) => (
          <li key={d.day} title={`${d.day}: ${d.count}`}>
            <span class="bar" style={{ height: `${(d.count / max) * 100}%` }} />
            <span class="sr-only">
              {d.day}: {d.count} documents
            </span>
          </li>
        ))}
      </ol>
      <figcaption class="hint">
        {days[0]?.day} to {days.at(-1)?.day}, highest day {max}.
      </figcaption>
    </figure>
  );
}

function SpendingCap({ usage, onSaved }: { usage: Usage; onSaved: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget as HTMLFormElement).get('cap') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const cents = value === '' ? null : Math.round(Number(value) * 100);
      await call(api.PUT('/account/spending-cap', { body: { spending_cap_cents: cents } }));
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline" onSubmit={save}>
      <label for="cap">Spending cap (currency units; empty for none)</label>
      <input
        id="cap"
        name="cap"
        type="number"
        min="0"
        step="0.01"
        defaultValue={usage.spending_cap_cents === null ? '' : money(usage.spending_cap_cents)}
        aria-describedby="cap-error"
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save cap'}
      </button>
      <ErrorText error={error} id="cap-error" />
    </form>
  );
}
