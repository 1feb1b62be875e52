/**
 * The recorded instruments, defined once: the Prometheus registry (registry.ts) and the OTLP meter
 * (otlp.ts) both build theirs from these names, descriptions, labels and buckets.
 */
export interface InstrumentDefinition<L extends string> {
  name: string;
  help: string;
  labelNames: L[];
  /** Seconds; only histograms have them. */
  buckets?: number[];
  unit?: string;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const RENDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

export const INSTRUMENTS = {
  httpRequests: {
    name: 'quire_http_requests_total',
    help: 'HTTP responses by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
  } satisfies InstrumentDefinition<'route' | 'method' | 'status'>,
  httpSeconds: {
    name: 'quire_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: SECONDS_BUCKETS,
    unit: 's',
  } satisfies InstrumentDefinition<'route' | 'method' | 'status'>,
  renders: {
    name: 'quire_renders_total',
    help: 'Document renders by mode (fast, print) and outcome (ok or the error code).',
    labelNames: ['mode', 'outcome'],
  } satisfies InstrumentDefinition<'mode' | 'outcome'>,
  renderSeconds: {
    name: 'quire_render_duration_seconds',
    help: 'Render time (pool wait included) by mode and outcome.',
    labelNames: ['mode', 'outcome'],
    buckets: RENDER_BUCKETS,
    unit: 's',
  } satisfies InstrumentDefinition<'mode' | 'outcome'>,
};
