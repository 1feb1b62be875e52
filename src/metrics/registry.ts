import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../storage/index.js';
import { INSTRUMENTS, type InstrumentDefinition } from './definitions.js';
import { scrapedGauges } from './sources.js';

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

/** prom-client's fields of a definition. */
function pick<L extends string>(definition: InstrumentDefinition<L>) {
  return { name: definition.name, help: definition.help, labelNames: definition.labelNames };
}

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
    const { httpRequests, httpSeconds, renders, renderSeconds } = INSTRUMENTS;
    this.httpRequests = new Counter({ ...pick(httpRequests), registers });
    this.httpSeconds = new Histogram({ ...pick(httpSeconds), buckets: httpSeconds.buckets, registers });
    this.renders = new Counter({ ...pick(renders), registers });
    this.renderSeconds = new Histogram({ ...pick(renderSeconds), buckets: renderSeconds.buckets, registers });
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

/** Gauges read at scrape time from the renderer and the database (sources.ts). */
function registerScrapeGauges(registry: Registry, db: Db, renderer: RendererGauges): void {
  for (const gauge of scrapedGauges(db, renderer)) {
    new Gauge({
      name: gauge.name,
      help: gauge.help,
      labelNames: gauge.labelNames,
      registers: [registry],
      async collect() {
        const readings = await gauge.read();
        this.reset();
        for (const { labels, value } of readings) this.set(labels, value);
      },
    });
  }
}
