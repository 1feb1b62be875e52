import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { quireVersion } from '../../../src/shared/version.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor, waitUntil } from '../../helpers/wait.js';
import { type Receiver, startReceiver } from '../../helpers/webhook-receiver.js';
import { type ExportedSpan, type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';

/** What must never reach a span, a metric or a log record. */
const SECRET_DATA = `secret-data-${randomBytes(6).toString('hex')}`;
const SECRET_HTML = `secret-html-${randomBytes(6).toString('hex')}`;
const EMAIL = `person-${randomBytes(4).toString('hex')}@example.com`;

function traceparent(): { header: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

/** Captures the server's log lines (readable format: each record's fields as key=value) while `work` runs. */
async function captureLogs(work: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    await work();
  } finally {
    process.stdout.write = write;
  }
  return lines;
}

describe('OpenTelemetry: traces, metrics and logs over OTLP http/json', () => {
  let otlp: OtlpReceiver;
  let hooks: Receiver;
  let server: TestServer;
  let team: TestTeam;

  before(async () => {
    otlp = await startOtlpReceiver();
    hooks = await startReceiver();
    server = await startTestServer({
      allowPrivateWebhooks: true,
      logLevel: 'info',
      logFormat: 'pretty',
      otel: {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'quire-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_METRIC_EXPORT_INTERVAL: '500',
      },
    });
    team = await server.team('growth');
  });
  after(async () => {
    await server?.close();
    await hooks?.close();
    await otlp?.close();
  });

  const spansOf = (traceId: string) => otlp.spans.filter((s) => s.traceId === traceId);
  const eventsOf = (spans: ExportedSpan[], name: string) =>
    spans.flatMap((s) => s.events.filter((e) => e.name === name));

  it('a direct render is one trace continuing the incoming traceparent: server span, Liquid, Chromium, finishing, storage', async () => {
    const incoming = traceparent();
    const logs = await captureLogs(async () => {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: team.test,
        headers: { traceparent: incoming.header },
        body: {
          html: `<h1>{{ title }}</h1><p>${SECRET_HTML}</p>`,
          data: { title: SECRET_DATA, contact: EMAIL },
          metadata: { owner: EMAIL },
          response: 'url',
        },
      });
      assert.equal(r.status, 200, r.text);
    });
    const names = ['quire.liquid', 'quire.chromium.load', 'quire.chromium.print', 'quire.finish'];
    await waitUntil('the render trace exported', () =>
      ['quire.storage.blob_write', ...names].every((n) =>
        spansOf(incoming.traceId).some((s) => s.name === n),
      ),
    );
    const spans = spansOf(incoming.traceId);
    const serverSpan = spans.find((s) => s.name === 'POST /v1/pdf');
    assert.ok(serverSpan, `a server span among ${spans.map((s) => s.name).join(', ')}`);
    assert.equal(serverSpan.kind, 2, 'SERVER');
    assert.equal(serverSpan.parentSpanId, incoming.spanId, 'the incoming traceparent is continued');
    assert.equal(serverSpan.attributes['http.route'], '/v1/pdf');
    assert.equal(serverSpan.attributes['http.response.status_code'], 200);
    assert.equal(serverSpan.attributes['quire.team_id'], team.team.id);
    assert.equal(serverSpan.attributes['quire.key_mode'], 'test');
    for (const span of spans) {
      assert.equal(span.resource['service.name'], 'quire-under-test');
      assert.equal(span.resource['service.version'], quireVersion());
    }
    // Every child hangs off a span of the same trace: one tree under the server span.
    const ids = new Set(spans.map((s) => s.spanId));
    for (const span of spans.filter((s) => s !== serverSpan))
      assert.ok(ids.has(span.parentSpanId), span.name);
    const traced = logs.filter((line) => line.includes(`trace_id=${incoming.traceId}`));
    assert.ok(traced.length > 0, `log records carry the trace id:\n${logs.join('')}`);
  });

  it("an async document's webhook request carries a traceparent of the POST /v1/pdf's trace", async () => {
    const created = await api(server.base, 'POST', '/v1/webhooks', {
      key: team.test,
      body: { url: hooks.url('/traced'), events: ['pdf.created'] },
    });
    assert.equal(created.status, 201, created.text);
    const incoming = traceparent();
    const queued = await api(server.base, 'POST', '/v1/pdf', {
      key: team.test,
      headers: { traceparent: incoming.header },
      body: { html: `<p>${SECRET_HTML}</p>`, data: { who: SECRET_DATA }, async: true },
    });
    assert.equal(queued.status, 202, queued.text);
    const delivery = await waitFor(
      'the pdf.created delivery',
      async () => hooks.received.find((r) => r.path === '/traced') ?? null,
    );
    const header = String(delivery.headers.traceparent ?? '');
    assert.match(header, /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    assert.equal(
      header.split('-')[1],
      incoming.traceId,
      'the webhook is in the trace of the POST that queued it',
    );
    await waitUntil('the delivery span exported', () =>
      spansOf(incoming.traceId).some((s) => s.name === 'quire.webhook.delivery'),
    );
    const names = new Set(spansOf(incoming.traceId).map((s) => s.name));
    for (const name of ['POST /v1/pdf', 'quire.job render', 'quire.chromium.print', 'quire.webhook.delivery'])
      assert.ok(names.has(name), `${name} in ${[...names].join(', ')}`);
    // The queue's depth when the render was queued (in the POST's part of the trace) and when it was claimed.
    const spans = spansOf(incoming.traceId);
    const enqueued = eventsOf(spans, 'quire.queue.enqueued').find(
      (e) => e.attributes['quire.job.kind'] === 'render',
    );
    assert.ok(enqueued, 'a quire.queue.enqueued event for the render job');
    assert.ok(Number(enqueued.attributes['quire.queue.depth']) >= 1, 'the depth counts the job just queued');
    const job = spans.find((s) => s.name === 'quire.job render');
    const claimed = job?.events.find((e) => e.name === 'quire.queue.claimed');
    assert.ok(claimed, 'the job span has a quire.queue.claimed event');
    assert.equal(claimed.attributes['quire.job.kind'], 'render');
    assert.equal(typeof claimed.attributes['quire.queue.depth'], 'number');
    assert.ok(Number(claimed.attributes['quire.job.age_ms']) >= 0);
  });

  it('a refusal is an event on the server span, with its error code', async () => {
    const free = await server.team('free');
    const incoming = traceparent();
    const refused = await api(server.base, 'POST', '/v1/webhooks', {
      key: free.live,
      headers: { traceparent: incoming.header },
      body: { url: hooks.url('/refused'), events: ['pdf.created'] },
    });
    assert.equal(refused.status, 402, refused.text);
    assert.equal(refused.json.error.code, 'feature_not_available');
    const span = await waitFor(
      'the refused request exported',
      async () => spansOf(incoming.traceId).find((s) => s.name === 'POST /v1/webhooks') ?? null,
    );
    const event = span.events.find((e) => e.name === 'quire.refused');
    assert.ok(event, `a quire.refused event among ${span.events.map((e) => e.name).join(', ')}`);
    assert.equal(event.attributes['quire.error.code'], 'feature_not_available');
    assert.equal(event.attributes['http.response.status_code'], 402);
  });

  it('exports the render-duration histogram by mode and outcome, and the queue and pool gauges', async () => {
    const histogram = await waitFor(
      'the render histogram exported',
      async () =>
        otlp.histograms.find(
          (h) => h.name === 'quire_render_duration_seconds' && h.points.some((p) => p.count > 0),
        ) ?? null,
    );
    const point = histogram.points.find((p) => p.count > 0);
    assert.equal(point?.attributes.outcome, 'ok');
    assert.ok(['fast', 'print'].includes(String(point?.attributes.mode)));
    // The gauges /metrics reads at scrape time, from the same definitions.
    for (const name of ['quire_jobs', 'quire_pool_pages_busy', 'quire_http_requests_total'])
      assert.ok(otlp.metricNames.has(name), `${name} in ${[...otlp.metricNames].join(', ')}`);
  });

  it('exports no key, HTML, Liquid data or email address', () => {
    const exported = otlp.raw.join('\n');
    assert.ok(exported.length > 0);
    for (const secret of [team.test, team.live, SECRET_HTML, SECRET_DATA, EMAIL])
      assert.ok(!exported.includes(secret), `exported data holds ${secret.slice(0, 12)}…`);
  });
});
