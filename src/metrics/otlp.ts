import { type Counter, type Histogram, metrics } from '@opentelemetry/api';
import { INSTRUMENTS } from './definitions.js';
import type { MetricsRecorder } from './registry.js';
import type { ReadGauge } from './sources.js';

/**
 * The recorded instruments on the OpenTelemetry meter (exported over OTLP when an endpoint is set), built
 * from the same definitions as the Prometheus registry's: same names, descriptions, labels and buckets.
 */
export class OtlpMetrics implements MetricsRecorder {
  private readonly httpRequests: Counter;
  private readonly httpSeconds: Histogram;
  private readonly renders: Counter;
  private readonly renderSeconds: Histogram;

  /** `gauges`: the scraped gauges (sources.ts), observed at every export. */
  constructor(gauges: ReadGauge[]) {
    const meter = metrics.getMeter('quire');
    for (const gauge of gauges) {
      meter.createObservableGauge(gauge.name, { description: gauge.help }).addCallback(async (result) => {
        for (const { labels, value } of await gauge.read()) result.observe(value, labels);
      });
    }
    const { httpRequests, httpSeconds, renders, renderSeconds } = INSTRUMENTS;
    this.httpRequests = meter.createCounter(httpRequests.name, { description: httpRequests.help });
    this.httpSeconds = meter.createHistogram(httpSeconds.name, {
      description: httpSeconds.help,
      unit: httpSeconds.unit,
      advice: { explicitBucketBoundaries: httpSeconds.buckets },
    });
    this.renders = meter.createCounter(renders.name, { description: renders.help });
    this.renderSeconds = meter.createHistogram(renderSeconds.name, {
      description: renderSeconds.help,
      unit: renderSeconds.unit,
      advice: { explicitBucketBoundaries: renderSeconds.buckets },
    });
  }

  httpResponse(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.httpRequests.add(1, labels);
    this.httpSeconds.record(seconds, labels);
  }

  render(mode: string, outcome: string, seconds: number): void {
    this.renders.add(1, { mode, outcome });
    this.renderSeconds.record(seconds, { mode, outcome });
  }
}

/** One recorder that records to each of several (Prometheus and OTLP both on). */
export function recordToAll(recorders: MetricsRecorder[]): MetricsRecorder {
  return {
    httpResponse: (...args) => {
      for (const recorder of recorders) recorder.httpResponse(...args);
    },
    render: (...args) => {
      for (const recorder of recorders) recorder.render(...args);
    },
  };
}
