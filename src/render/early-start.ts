import type { Config } from '../config/config.js';
import { DeferredLogger } from './logger.js';
import type { RenderService } from './render-service.js';

/** A renderer whose Chromium was launched before the rest of the service loaded. */
export interface EarlyRenderer {
  service: RenderService;
  /** Holds the renderer's log lines until the server's logger exists (buildApp attaches it). */
  log: DeferredLogger;
}

/**
 * Launches Chromium now and starts its warm pages, without waiting for them: `quire serve` calls this
 * before it loads the HTTP service, so Chromium boots on another core while Node loads the remaining
 * modules and runs migrations (start to first PDF, issue 17). Only playwright-core is loaded before the
 * launch; the render engine's other modules (undici, the print mode) load while Chromium starts. A failed
 * launch is not reported here: the service's own `warm()` tries again and reports it as before.
 */
export async function startRendererEarly(config: Config): Promise<EarlyRenderer> {
  const log = new DeferredLogger();
  const { BrowserSupervisor } = await import('./browser-supervisor.js');
  const launching = BrowserSupervisor.start(config.chromiumPath, log);
  launching.catch(() => undefined);
  const { RenderService } = await import('./render-service.js');
  const service = new RenderService(config, log, launching);
  service.warm().catch(() => undefined);
  return { service, log };
}
