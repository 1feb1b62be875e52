import {
  type Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * The seams' side of tracing: only the OpenTelemetry API, never the SDK. While tracing is off (no endpoint,
 * the default) `tracing.on` is false and every helper calls its function straight through: no span object,
 * no context switch on the render path.
 */
export const tracing = { on: false };

const TRACER = 'quire';

/**
 * Runs `work` in a child span of the current one. A thrown error marks the span failed with the error's
 * code (never its message: messages may quote the request) and is rethrown.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!tracing.on) return work(null);
  return trace.getTracer(TRACER).startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      markFailed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed with the error's code (an AppError's spec code, else the error's class). */
export function markFailed(span: Span, err: unknown): void {
  const code = codeOf(err);
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  span.setAttribute('error.type', code);
}

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Za-z_]{1,40}$/.test(code)) return code;
  return err instanceof Error ? err.name : 'error';
}

/**
 * Whether the current span records: a seam checks this before computing an event's attributes costs a
 * query (the queue depth), so nothing extra runs while tracing is off or the trace is not sampled.
 */
export function tracingActive(): boolean {
  return tracing.on && trace.getSpan(context.active())?.isRecording() === true;
}

/** An event on the current span (a retry, a refusal, a relaunch), with bounded attributes only. */
export function spanEvent(name: string, attributes: Attributes = {}): void {
  if (!tracing.on) return;
  trace.getSpan(context.active())?.addEvent(name, attributes);
}

/**
 * The current trace as a W3C `traceparent` value, to travel with a job or a webhook request; undefined when
 * tracing is off or nothing is being traced.
 */
export function currentTraceparent(): string | undefined {
  if (!tracing.on) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Runs `work` in the trace `traceparent` names (a job's, recorded when it was queued). */
export function withTraceparent<T>(traceparent: string | null | undefined, work: () => T): T {
  if (!tracing.on || !traceparent) return work();
  const parent = propagation.extract(ROOT_CONTEXT, { traceparent });
  return context.with(parent, work);
}

/** The ids a log record carries when it is written inside a traced request or job (pino's mixin). */
export function traceFields(): { trace_id?: string; span_id?: string } {
  if (!tracing.on) return {};
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
