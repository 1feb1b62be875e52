import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Lifecycle } from '../shared/capability.js';
import { quireVersion } from '../shared/version.js';
import { type OtelVariables, telemetrySettings } from './config.js';
import { finishServerSpan, noteRefusal, type RespondedRequest, traceRequests } from './http.js';
import { traceFields } from './spans.js';

export {
  currentTraceparent,
  inSpan,
  markFailed,
  spanEvent,
  tracingActive,
  withTraceparent,
} from './spans.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What the server and the composition root take from telemetry; all absent while it is off. */
export interface Telemetry extends Lifecycle {
  /**
   * Traces are exported: the server wraps its handler (a span per request), completes each span when the
   * response is sent and adds the trace ids to log records. Empty while traces are off.
   */
  server: {
    wrapRequest?: (handler: Handler) => Handler;
    logMixin?: () => object;
    onResponse?: (request: RespondedRequest, status: number) => void;
    /** Sees each serialized response before it is sent (refusals become span events). */
    onSend?: (request: RespondedRequest, status: number, payload: unknown) => void;
  };
  /** Metrics are exported over OTLP (the recorder is built on the global meter). */
  metrics: boolean;
  /** Sends what is buffered now (tests; shutdown flushes too). */
  flush(): Promise<void>;
}

const OFF: Telemetry = { server: {}, metrics: false, flush: async () => {} };

/**
 * Starts OpenTelemetry when the OTEL_* variables name an endpoint. Off (the default), the SDK is not even
 * loaded, and nothing on the request or render path changes.
 */
export async function startTelemetry(vars: OtelVariables = {}): Promise<Telemetry> {
  const settings = telemetrySettings(vars);
  if (!settings) return OFF;
  // Before the logger exists; a misspelt variable must not stop the server.
  for (const warning of settings.warnings) console.warn(`OpenTelemetry: ${warning}`);
  const { startSdk } = await import('./sdk.js');
  const sdk = startSdk(settings, quireVersion());
  const traces = settings.traces !== null;
  return {
    server: traces
      ? {
          wrapRequest: traceRequests,
          logMixin: traceFields,
          onResponse: finishServerSpan,
          onSend: noteRefusal,
        }
      : {},
    metrics: settings.metrics !== null,
    flush: () => sdk.flush(),
    close: () => sdk.shutdown(),
  };
}
