import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../storage/index.js';

/** What the metrics read from the renderer at scrape time (render/'s RendererStats, narrowed). */
export interface RendererGauges {
  stats(): Promise<{ busy: number; queued: number; relaunches: number } | null>;
}

/** The recording port other parts receive: plain functions, no prom-client types. */
export interface MetricsRecorder {
  /** One HTTP response: route pattern (not the URL: bounded label values), method, status, seconds. */
  httpResponse(route: string, method: string, status: number, seconds: number): void;
  /** One document render: its mode, `ok` or the error code, seconds. */
  render(mode: string, outcome: string, seconds: number): void;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const RENDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/**
 * The process's Prometheus registry. Counters are recorded as things happen (HTTP, renders); everything
 * that already has a source of truth — pool, Chromium relaunches, the queue, deliveries, emails, stored
 * bytes — is read when scraped, so no capability carries recording code for it.
 */
export class QuireMetrics implements MetricsRecorder {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  private readonly httpSeconds: Histogram<'route' | 'method' | 'status'>;
  private readonly renders: Counter<'mode' | 'outcome'>;
  private readonly renderSeconds: Histogram<'mode' | 'outcome'>;

  constructor(db: Db, renderer: RendererGauges) {
    const registers = [this.registry];
    // Includes nodejs_eventloop_lag_seconds and its percentiles, heap and CPU.
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'quire_http_requests_total',
      help: 'HTTP responses by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: 'quire_http_request_duration_seconds',
      help: 'HTTP request latency by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.renders = new Counter({
      name: 'quire_renders_total',
      help: 'Document renders by mode (fast, print) and outcome (ok or the error code).',
      labelNames: ['mode', 'outcome'],
      registers,
    });
    this.renderSeconds = new Histogram({
      name: 'quire_render_duration_seconds',
      help: 'Render time (pool wait included) by mode and outcome.',
      labelNames: ['mode', 'outcome'],
      buckets: RENDER_BUCKETS,
      registers,
    });
    registerScrapeGauges(this.registry, db, renderer);
  }

  httpResponse(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpSeconds.observe(labels, seconds);
  }

  render(mode: string, outcome: string, seconds: number): void {
    this.renders.inc({ mode, outcome });
    this.renderSeconds.observe({ mode, outcome }, seconds);
  }

  /** The Prometheus text exposition of everything. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** Gauges read at scrape time from the renderer and the database. */
function registerScrapeGauges(registry: Registry, db: Db, renderer: RendererGauges): void {
  const registers = [registry];
  const busy = new Gauge({ name: 'quire_pool_pages_busy', help: 'Pool pages rendering now.', registers });
  const waiting = new Gauge({
    name: 'quire_renders_waiting',
    help: 'Renders waiting for a free pool page.',
    registers,
  });
  new Gauge({
    name: 'quire_chromium_relaunches_total',
    help: 'Chromium relaunches after a crash or disconnect since the process started (a counter).',
    registers,
    async collect() {
      const stats = await renderer.stats();
      busy.set(stats?.busy ?? 0);
      waiting.set(stats?.queued ?? 0);
      this.set(stats?.relaunches ?? 0);
    },
  });
  new Gauge({
    name: 'quire_jobs',
    help: 'Jobs in the durable queue by kind and status (queued = queue depth; finished rows until swept).',
    labelNames: ['kind', 'status'],
    registers,
    async collect() {
      this.reset();
      const rows = await db
        .selectFrom('jobs')
        .select(({ fn }) => ['kind', 'status', fn.countAll<number>().as('n')])
        .groupBy(['kind', 'status'])
        .execute();
      for (const r of rows) this.set({ kind: r.kind, status: r.status }, Number(r.n));
    },
  });
  statusGauge(registers, db, 'webhook_deliveries', {
    name: 'quire_webhook_deliveries',
    help: 'Webhook delivery attempts retained in the delivery log, by status.',
  });
  statusGauge(registers, db, 'email_deliveries', {
    name: 'quire_emails',
    help: 'Emails (deliver.email) by status.',
  });
  new Gauge({
    name: 'quire_stored_bytes',
    help: 'Bytes of stored document files (what storage quotas sum).',
    registers,
    async collect() {
      // The per-team running totals (migration 0019): a row per team and mode, not one per document.
      const row = await db
        .selectFrom('team_stored_bytes')
        .select(({ fn }) => fn.sum<number>('bytes').as('bytes'))
        .executeTakeFirst();
      this.set(Number(row?.bytes ?? 0));
    },
  });
}

/** A gauge of a table's rows by their `status`, counted at scrape time. */
function statusGauge(
  registers: Registry[],
  db: Db,
  table: 'webhook_deliveries' | 'email_deliveries',
  metric: { name: string; help: string },
): void {
  new Gauge({
    ...metric,
    labelNames: ['status'],
    registers,
    async collect() {
      this.reset();
      const rows = await db
        .selectFrom(table)
        .select(({ fn }) => ['status', fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      for (const r of rows) this.set({ status: r.status }, Number(r.n));
    },
  });
}
