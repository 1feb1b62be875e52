/**
 * The OpenTelemetry SDK's standard variables, read from a record (the process's OTEL_* variables, or a test's
 * own) rather than from `process.env`, so a test server can export to its own receiver.
 */
export type OtelVariables = Readonly<Record<string, string | undefined>>;

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface SignalExport {
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  timeoutMs: number;
}

export type SamplerSetting =
  | { kind: 'always_on' | 'always_off' }
  | { kind: 'ratio'; ratio: number; parentBased: boolean }
  | { kind: 'parentbased_always_on' | 'parentbased_always_off' };

export interface TelemetrySettings {
  serviceName: string;
  resourceAttributes: Record<string, string>;
  /** OTEL_BSP_SCHEDULE_DELAY: how long finished spans wait to be sent in a batch. */
  traces: (SignalExport & { delayMs: number }) | null;
  metrics: (SignalExport & { intervalMs: number }) | null;
  sampler: SamplerSetting;
  /** What was set but not understood: logged once at start, never fatal. */
  warnings: string[];
}

/** What the variables ask for; null when nothing is exported (no endpoint, or the SDK disabled). */
export function telemetrySettings(vars: OtelVariables): TelemetrySettings | null {
  if (vars.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const warnings: string[] = [];
  const traces = exporterOf(vars, 'TRACES', 'traces', warnings);
  const metrics = exporterOf(vars, 'METRICS', 'metrics', warnings);
  if (!traces && !metrics) return null;
  return {
    serviceName: vars.OTEL_SERVICE_NAME?.trim() || 'quire',
    resourceAttributes: keyValues(vars.OTEL_RESOURCE_ATTRIBUTES),
    traces: traces ? { ...traces, delayMs: positiveInt(vars.OTEL_BSP_SCHEDULE_DELAY, 5_000) } : null,
    metrics: metrics
      ? { ...metrics, intervalMs: positiveInt(vars.OTEL_METRIC_EXPORT_INTERVAL, 60_000) }
      : null,
    sampler: samplerOf(vars, warnings),
    warnings,
  };
}

/**
 * One signal's exporter: the signal's own endpoint as given, else the shared endpoint with `/v1/<signal>`
 * (the specification's rule); `OTEL_<SIGNAL>_EXPORTER=none` turns the signal off.
 */
function exporterOf(
  vars: OtelVariables,
  signal: 'TRACES' | 'METRICS',
  path: string,
  warnings: string[],
): SignalExport | null {
  const chosen = vars[`OTEL_${signal}_EXPORTER`]?.trim().toLowerCase();
  if (chosen === 'none') return null;
  if (chosen && chosen !== 'otlp')
    warnings.push(`OTEL_${signal}_EXPORTER=${chosen} is not supported; using otlp`);
  const own = vars[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim();
  const shared = vars.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = own || (shared ? `${shared.replace(/\/+$/, '')}/v1/${path}` : '');
  if (!url) return null;
  return {
    url,
    protocol: protocolOf(
      vars[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ?? vars.OTEL_EXPORTER_OTLP_PROTOCOL,
      warnings,
    ),
    headers: {
      ...keyValues(vars.OTEL_EXPORTER_OTLP_HEADERS),
      ...keyValues(vars[`OTEL_EXPORTER_OTLP_${signal}_HEADERS`]),
    },
    timeoutMs: positiveInt(
      vars[`OTEL_EXPORTER_OTLP_${signal}_TIMEOUT`] ?? vars.OTEL_EXPORTER_OTLP_TIMEOUT,
      10_000,
    ),
  };
}

function protocolOf(raw: string | undefined, warnings: string[]): OtlpProtocol {
  const value = raw?.trim().toLowerCase();
  if (!value || value === 'http/protobuf') return 'http/protobuf';
  if (value === 'http/json') return 'http/json';
  // grpc would need another transport package; http/protobuf reaches every collector on its HTTP port.
  warnings.push(`OTEL_EXPORTER_OTLP_PROTOCOL=${value} is not supported; using http/protobuf`);
  return 'http/protobuf';
}

function samplerOf(vars: OtelVariables, warnings: string[]): SamplerSetting {
  const name = vars.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const arg = Number.parseFloat(vars.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const ratio = Number.isFinite(arg) && arg >= 0 && arg <= 1 ? arg : 1;
  switch (name) {
    case 'always_on':
    case 'always_off':
    case 'parentbased_always_on':
    case 'parentbased_always_off':
      return { kind: name };
    case 'traceidratio':
      return { kind: 'ratio', ratio, parentBased: false };
    case 'parentbased_traceidratio':
      return { kind: 'ratio', ratio, parentBased: true };
    default:
      warnings.push(`OTEL_TRACES_SAMPLER=${name} is not supported; using parentbased_always_on`);
      return { kind: 'parentbased_always_on' };
  }
}

/** `k1=v1,k2=v2`, percent-decoded (the form of OTEL_RESOURCE_ATTRIBUTES and OTEL_EXPORTER_OTLP_HEADERS). */
function keyValues(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = decode(pair.slice(0, at).trim());
    if (key) out[key] = decode(pair.slice(at + 1).trim());
  }
  return out;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function positiveInt(raw: string | undefined, fallback: number): number {
  const value = Number.parseInt(raw ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
