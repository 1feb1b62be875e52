import type { Config } from '../../src/config/config.js';
import { LiquidEngine } from '../../src/liquid/index.js';
import { RENDERER_SETTINGS, type Renderer, RenderService } from '../../src/render/index.js';
import { silentLogger } from '../../src/render/logger.js';
import { UntrustedFiles } from '../../src/untrusted/index.js';

/**
 * One renderer (one browser context and page in the run's shared Chromium) and one set of worker pools (Liquid,
 * uploaded files) for the test servers of a process that configure them alike, instead of one each: a new
 * context and page cost the shared Chromium about 0.4 s of CPU and the test process a connection, a Liquid
 * worker about 0.3 s to load, and a whole run starts hundreds of servers that render a few documents each.
 * Servers of a process run one after another; the page is reset between renders and the pools are shared
 * between teams as in production (render/isolation.test.ts, liquid/isolation.test.ts, untrusted/shared-pool).
 * The renderer is keyed by the settings a renderer reads (RENDERER_SETTINGS), the pools by the Liquid time
 * limit. A server with its own Chromium keeps its own renderer; one with its own logs (a log level other than
 * silent), or QUIRE_TEST_SHARED_ENGINES=0, keeps its own renderer and pools.
 */

/** How long an engine no server uses stays open for the next one (the next describe block's server). */
const IDLE_CLOSE_MS = 300;

interface Entry<T> {
  value: T | null;
  users: number;
  idle: NodeJS.Timeout | null;
}

/** Engines kept by key while servers use them, closed a moment after the last one closes. */
class SharedEngines<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly close: (value: T) => unknown) {}

  /** A loan of the engine under `key`, made by `make` on first use. */
  borrow(key: string, make: () => T): { get: () => T; forget: (value: T) => void; release: () => void } {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { value: null, users: 0, idle: null };
      this.entries.set(key, entry);
    }
    const own = entry;
    own.users += 1;
    if (own.idle) clearTimeout(own.idle);
    own.idle = null;
    let released = false;
    return {
      get: () => {
        own.value ??= make();
        return own.value;
      },
      forget: (value) => {
        if (own.value === value) own.value = null;
      },
      release: () => {
        if (released) return;
        released = true;
        own.users -= 1;
        if (own.users === 0) own.idle = setTimeout(() => this.closeIdle(key, own), IDLE_CLOSE_MS);
      },
    };
  }

  private closeIdle(key: string, entry: Entry<T>): void {
    if (entry.users > 0) return;
    this.entries.delete(key);
    if (entry.value) Promise.resolve(this.close(entry.value)).catch(() => undefined);
  }
}

const renderers = new SharedEngines<Promise<Renderer>>((renderer) => renderer.then((r) => r.close()));
const pools = new SharedEngines<{ liquid: LiquidEngine; untrusted: UntrustedFiles }>((p) =>
  Promise.all([p.liquid.close(), p.untrusted.close()]),
);

/** What buildApp takes from a loan, and the release its server calls once closed. */
export interface EnginesLoan {
  sharedRenderer?: () => Promise<Renderer>;
  sharedPools?: { liquid: LiquidEngine; untrusted: UntrustedFiles };
  release: () => void;
}

/** Loans of the process's engines for a server configured like `config`, or nothing it should keep its own. */
export function borrowEngines(config: Config, liquidRenderMs: number | undefined): EnginesLoan {
  if (config.logLevel !== 'silent' || process.env.QUIRE_TEST_SHARED_ENGINES === '0') return { release() {} };
  const poolLoan = pools.borrow(String(liquidRenderMs), () => ({
    liquid: new LiquidEngine({ renderMs: liquidRenderMs }),
    untrusted: new UntrustedFiles(),
  }));
  const rendererLoan = config.chromiumWsEndpoint
    ? renderers.borrow(JSON.stringify(RENDERER_SETTINGS.map((name) => config[name])), () =>
        RenderService.startRenderer(config, silentLogger),
      )
    : null;
  return {
    sharedPools: poolLoan.get(),
    ...(rendererLoan ? { sharedRenderer: () => startedRenderer(rendererLoan) } : {}),
    release: () => {
      poolLoan.release();
      rendererLoan?.release();
    },
  };
}

/** The shared renderer; one whose start failed is not kept, so the next render starts another. */
function startedRenderer(loan: { get: () => Promise<Renderer>; forget: (value: Promise<Renderer>) => void }) {
  const renderer = loan.get();
  renderer.catch(() => loan.forget(renderer));
  return renderer;
}
