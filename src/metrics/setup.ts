import type { App } from '../http/server.js';
import type { Db } from '../storage/index.js';
import { instrumentRenderer, type RenderPort } from './instrument.js';
import { OtlpMetrics, recordToAll } from './otlp.js';
import { type MetricsRecorder, QuireMetrics, type RendererGauges } from './registry.js';
import { metricsAccess, recordHttpResponses, registerMetricsRoutes } from './routes.js';
import { scrapedGauges } from './sources.js';

/**
 * The process's recorders: the Prometheus registry when GET /metrics is on, the OTLP meter when an endpoint
 * is set, both from one set of definitions. Neither: no recorder, and nothing is measured.
 */
export function createMetrics(
  config: { metrics: 'off' | 'public'; metricsToken: string | null },
  options: { db: Db; renderer: RendererGauges; otlp: boolean },
) {
  const access = metricsAccess(config.metrics, config.metricsToken);
  const registry = access.kind === 'off' ? null : new QuireMetrics(options.db, options.renderer);
  const recorders: MetricsRecorder[] = [];
  if (registry) recorders.push(registry);
  if (options.otlp) recorders.push(new OtlpMetrics(scrapedGauges(options.db, options.renderer)));
  const recorder = recorders.length === 0 ? null : recordToAll(recorders);
  return {
    access,
    registry,
    /** The renderer port production uses, timed by mode and outcome when anything records. */
    measure<J extends { page: { mode: string } }, R>(renderer: RenderPort<J, R>): RenderPort<J, R> {
      return recorder ? instrumentRenderer(renderer, recorder) : renderer;
    },
    register(app: App): void {
      if (recorder) recordHttpResponses(app, recorder);
      if (registry) registerMetricsRoutes(app, registry, access);
    },
  };
}
