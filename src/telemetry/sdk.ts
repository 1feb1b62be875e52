import { context, metrics, propagation, type Sampler, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { SamplerSetting, TelemetrySettings } from './config.js';
import { tracing } from './spans.js';

/**
 * The OpenTelemetry SDK, loaded (by a dynamic import) only when an endpoint is set. It registers the
 * process's tracer and meter providers, the W3C propagator and the AsyncLocalStorage context manager
 * through the API's globals: one exporting server per process.
 */
export interface StartedSdk {
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export function startSdk(settings: TelemetrySettings, version: string): StartedSdk {
  const resource = resourceFromAttributes({
    ...settings.resourceAttributes,
    [ATTR_SERVICE_NAME]: settings.serviceName,
    [ATTR_SERVICE_VERSION]: version,
  });
  const tracer = settings.traces
    ? new BasicTracerProvider({
        resource,
        sampler: samplerOf(settings.sampler),
        spanProcessors: [
          new BatchSpanProcessor(traceExporter(settings.traces), {
            scheduledDelayMillis: settings.traces.delayMs,
          }),
        ],
      })
    : null;
  const meter = settings.metrics
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: metricExporter(settings.metrics),
            exportIntervalMillis: settings.metrics.intervalMs,
            exportTimeoutMillis: Math.min(settings.metrics.timeoutMs, settings.metrics.intervalMs),
          }),
        ],
      })
    : null;
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (tracer) trace.setGlobalTracerProvider(tracer);
  if (meter) metrics.setGlobalMeterProvider(meter);
  tracing.on = tracer !== null;
  return {
    async flush() {
      await Promise.all([tracer?.forceFlush(), meter?.forceFlush()]);
    },
    async shutdown() {
      tracing.on = false;
      await Promise.allSettled([tracer?.shutdown(), meter?.shutdown()]);
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}

function exporterOptions(target: { url: string; headers: Record<string, string>; timeoutMs: number }) {
  return { url: target.url, headers: target.headers, timeoutMillis: target.timeoutMs };
}

function traceExporter(target: NonNullable<TelemetrySettings['traces']>) {
  const options = exporterOptions(target);
  return target.protocol === 'http/json'
    ? new JsonTraceExporter(options)
    : new ProtobufTraceExporter(options);
}

function metricExporter(target: NonNullable<TelemetrySettings['metrics']>) {
  const options = exporterOptions(target);
  return target.protocol === 'http/json'
    ? new JsonMetricExporter(options)
    : new ProtobufMetricExporter(options);
}

function samplerOf(setting: SamplerSetting): Sampler {
  switch (setting.kind) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'ratio': {
      const ratio = new TraceIdRatioBasedSampler(setting.ratio);
      return setting.parentBased ? new ParentBasedSampler({ root: ratio }) : ratio;
    }
  }
}
