import type { Config } from '../../src/config/config.js';
import { type Renderer, RenderService } from '../../src/render/index.js';
import { silentLogger } from '../../src/render/logger.js';

/**
 * One renderer (one browser context and page in the run's shared Chromium) for the test servers of a process
 * whose rendering is configured alike, instead of one each: a new context and page cost the shared Chromium
 * about 0.4 s of CPU and the test process a connection, and a whole run starts hundreds of servers that render
 * a few documents each. Servers of a process run one after another, and the page is reset between renders as
 * between two teams' renders in production (render/isolation.test.ts). A server with its own Chromium, its own
 * logs (a log level other than silent) or QUIRE_TEST_SHARED_RENDERER=0 keeps a renderer of its own.
 */

/** The settings a Renderer reads (src/render/renderer.ts, resource fetcher and page pool). */
const RENDERER_SETTINGS = [
  'chromiumPath',
  'chromiumWsEndpoint',
  'renderPoolSize',
  'renderQueueMax',
  'pageRecycleAfter',
  'renderTimeoutMs',
  'renderPageWarmUp',
  'allowPrivateResources',
  'urlAllowHosts',
  'resourceMaxBytes',
  'resourceTimeoutMs',
  'resourceMaxCount',
  'resourceMaxTotalBytes',
] as const satisfies ReadonlyArray<keyof Config>;

/** How long a renderer no server uses stays open for the next one (the next describe block's server). */
const IDLE_CLOSE_MS = 300;

interface Shared {
  renderer: Promise<Renderer> | null;
  users: number;
  idle: NodeJS.Timeout | null;
}

const shared = new Map<string, Shared>();

export interface RendererLoan {
  /** For buildApp's `sharedRenderer`: started on the first render of any borrower. */
  get: () => Promise<Renderer>;
  /** The server closed: the renderer closes once no server has used it for a moment. */
  release: () => void;
}

/** A loan of the process's renderer for servers configured like `config`, or null when it keeps its own. */
export function borrowRenderer(config: Config): RendererLoan | null {
  if (!config.chromiumWsEndpoint || config.logLevel !== 'silent') return null;
  if (process.env.QUIRE_TEST_SHARED_RENDERER === '0') return null;
  const key = JSON.stringify(RENDERER_SETTINGS.map((name) => config[name]));
  let entry = shared.get(key);
  if (!entry) {
    entry = { renderer: null, users: 0, idle: null };
    shared.set(key, entry);
  }
  const own = entry;
  own.users += 1;
  if (own.idle) clearTimeout(own.idle);
  own.idle = null;
  let released = false;
  return {
    get: () => {
      own.renderer ??= RenderService.startRenderer(config, silentLogger).catch((err: unknown) => {
        own.renderer = null;
        throw err;
      });
      return own.renderer;
    },
    release: () => {
      if (released) return;
      released = true;
      own.users -= 1;
      if (own.users === 0) own.idle = setTimeout(() => closeIdle(key, own), IDLE_CLOSE_MS);
    },
  };
}

function closeIdle(key: string, entry: Shared): void {
  if (entry.users > 0) return;
  shared.delete(key);
  entry.renderer?.then((renderer) => renderer.close()).catch(() => undefined);
}
