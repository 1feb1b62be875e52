import { api, call, type Schemas, type Session } from '../api';
import { DailyBarChart } from '../charts';
import { formatCents, formatCount, formatDay } from '../numbers';
import { Busy, ErrorText, Page, useLoad } from '../ui';
import { useAction } from '../use-action';

type Usage = Schemas['Usage'];

/** Live and test documents per day, stacked (live first: it is what the plan counts). */
const SERIES = [
  { label: 'live documents', className: 'series-live' },
  { label: 'test documents', className: 'series-test' },
];

export function UsagePage({ session }: { session: Session }) {
  const usage = useLoad(() => call(api.GET('/account/usage')), []);
  // The server counts the whole period for both modes (GET /account/usage/daily); the page draws it.
  const chart = useLoad(() => call(api.GET('/account/usage/daily')), []);
  return (
    <Page title="Usage">
      {usage.loading && <Busy label="Loading usage…" />}
      <ErrorText error={usage.error} />
      {usage.data && <UsageNumbers usage={usage.data} />}
      <h2>Documents per day (this period)</h2>
      {chart.loading && <Busy label="Counting documents…" />}
      <ErrorText error={chart.error} />
      {chart.data && (
        <>
          <DailyBarChart
            title="Documents per day, live and test"
            data={chart.data.data.map((d) => ({ day: d.day, values: [d.live, d.test] }))}
            series={SERIES}
          />
          <p class="hint" data-testid="chart-totals">
            {formatDay(chart.data.from, { dateStyle: 'medium' })} to{' '}
            {formatDay(chart.data.to, { dateStyle: 'medium' })}: {formatCount(chart.data.live_total)} live,{' '}
            {formatCount(chart.data.test_total)} test documents.
          </p>
        </>
      )}
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
        {formatDay(usage.period_start.slice(0, 10), { dateStyle: 'medium' })} to{' '}
        {formatDay(usage.period_end.slice(0, 10), { dateStyle: 'medium' })}
      </dd>
      <dt>Documents used</dt>
      <dd data-testid="docs-used">
        {formatCount(usage.docs_used)} of {formatCount(usage.docs_included)} included
        {usage.rollover_docs > 0 && ` (+${formatCount(usage.rollover_docs)} rolled over)`}
      </dd>
      <dt>Overage</dt>
      <dd>
        {formatCount(usage.overage_docs)} documents, {formatCents(usage.overage_cost_cents)}
      </dd>
      <dt>Spending cap</dt>
      <dd>{usage.spending_cap_cents === null ? 'none' : formatCents(usage.spending_cap_cents)}</dd>
      {usage.overage_blocked_reason && (
        <>
          <dt>Blocked</dt>
          <dd>{usage.overage_blocked_reason}</dd>
        </>
      )}
    </dl>
  );
}

function SpendingCap({ usage, onSaved }: { usage: Usage; onSaved: () => void }) {
  const { busy, error, run } = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget as HTMLFormElement).get('cap') ?? '').trim();
    await run(async () => {
      const cents = value === '' ? null : Math.round(Number(value) * 100);
      await call(api.PUT('/account/spending-cap', { body: { spending_cap_cents: cents } }));
      onSaved();
    });
  };
  return (
    <form class="inline" onSubmit={save}>
      <label for="cap">Spending cap in US dollars (empty for none)</label>
      <input
        id="cap"
        name="cap"
        type="number"
        min="0"
        step="0.01"
        defaultValue={usage.spending_cap_cents === null ? '' : (usage.spending_cap_cents / 100).toFixed(2)}
        aria-describedby="cap-error"
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save cap'}
      </button>
      <ErrorText error={error} id="cap-error" />
    </form>
  );
}
