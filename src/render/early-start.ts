import type { Config } from '../config/config.js';
import type { BrowserSupervisor, ChromiumTarget } from './browser-supervisor.js';
import { DeferredLogger } from './logger.js';
import type { RenderService } from './render-service.js';

/** A renderer whose Chromium was launched before the rest of the service loaded. */
export interface EarlyRenderer {
  service: RenderService;
  /** Holds the renderer's log lines until the server's logger exists (buildApp attaches it). */
  log: DeferredLogger;
}

interface Launch {
  target: ChromiumTarget;
  log: DeferredLogger;
  launching: Promise<BrowserSupervisor>;
}

/** The launch bin/quire.mjs started before the CLI loaded, until `serve` takes it. */
let prelaunched: Launch | null = null;

function launch(target: ChromiumTarget, BrowserSupervisorClass: typeof BrowserSupervisor): Launch {
  const log = new DeferredLogger();
  const launching = BrowserSupervisorClass.start(target, log);
  // A failed launch is not reported here: the service's own `warm()` tries again and reports it.
  launching.catch(() => undefined);
  return { target, log, launching };
}

/**
 * `quire serve` only, called by bin/quire.mjs before it loads the CLI: reads the Chromium path (or server) from
 * the environment and launches it, so Chromium boots on the other core while Node loads the CLI and
 * the service (start to first PDF: the CLI's own modules took ~0.7 s before the launch
 * could start). Invalid configuration launches nothing; `serve` reports it as before.
 * @public bin/quire.mjs loads it by a computed path, which knip cannot follow.
 */
export async function prelaunchChromium(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { loadConfig } = await import('../config/config.js');
  let target: ChromiumTarget;
  try {
    const { chromiumPath, chromiumWsEndpoint } = loadConfig(env);
    target = { chromiumPath, chromiumWsEndpoint };
  } catch {
    return;
  }
  const { BrowserSupervisor } = await import('./browser-supervisor.js');
  prelaunched = launch(target, BrowserSupervisor);
}

/**
 * Starts the renderer's warm pages on a Chromium launched now, or on the one bin/quire.mjs launched
 * already (same path), without waiting for them: `quire serve` calls this before it loads the HTTP
 * service, so Chromium boots on another core while Node loads the remaining modules and runs
 * migrations. Only playwright-core is loaded before the launch; the render engine's other modules
 * (undici, the print mode) load while Chromium starts.
 */
export async function startRendererEarly(config: Config): Promise<EarlyRenderer> {
  const { BrowserSupervisor } = await import('./browser-supervisor.js');
  let early = prelaunched;
  prelaunched = null;
  if (
    early?.target.chromiumPath !== config.chromiumPath ||
    early.target.chromiumWsEndpoint !== config.chromiumWsEndpoint
  ) {
    early?.launching.then((supervisor) => supervisor.close()).catch(() => undefined);
    early = launch(config, BrowserSupervisor);
  }
  const { RenderService } = await import('./render-service.js');
  const service = new RenderService(config, early.log, early.launching);
  service.warm().catch(() => undefined);
  return { service, log: early.log };
}
