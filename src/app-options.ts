import type { CompiledRules } from './einvoice-inbound/index.js';
import type { EmailSender } from './email/index.js';
import type { LiquidEngine } from './liquid/index.js';
import type { EarlyRenderer, Renderer } from './render/index.js';
import type { Clock } from './shared/clock.js';
import type { UntrustedFiles } from './untrusted/index.js';
import type { Resolver } from './webhooks/index.js';

/** How `buildApp` (app.ts) builds the service: the server's start-up choices and the tests' seams. */
export interface BuildOptions {
  clock?: Clock;
  /**
   * The compiled e-invoice rules and which are still being compiled (`quire serve` from a checkout compiles
   * outdated ones after it listens, src/cli/einvoice-rules.ts). Default: QUIRE_EINVOICE_RULES_DIR, all ready.
   */
  einvoiceRules?: CompiledRules;
  /** Told when start-up reaches a phase (`quire serve`'s startup_ms, src/cli/startup-phases.ts). */
  onStartupPhase?: (phase: 'migrations' | 'built') => void;
  /** Start Chromium now rather than on the first render (the server does; most tests need not). */
  warmRenderer?: boolean;
  /** A renderer already starting (`quire serve` launches Chromium before it loads the service). */
  earlyRenderer?: EarlyRenderer;
  /**
   * A renderer someone else starts and closes, asked for on the first render; this server renders on it and
   * leaves it running when it closes (the tests share one among a process's servers, test/helpers/shared-engines.ts).
   */
  sharedRenderer?: () => Promise<Renderer>;
  /**
   * Worker pools someone else starts and closes (the tests share them among a process's servers, as
   * sharedRenderer): this server runs its Liquid and reads uploads on them and leaves them running.
   */
  sharedPools?: { liquid: LiquidEngine; untrusted: UntrustedFiles };
  /**
   * Do the first PDF request's one-time work at start, while Chromium boots: compile the POST /v1/pdf
   * schemas and start a Liquid worker (the server does; tests need not).
   */
  warmUp?: boolean;
  /** Run the periodic retention sweep (tests call `services.sweeper.runOnce()` instead). */
  startSweeper?: boolean;
  /** Test seams for background work: a capturing email sender, a long job poll, a fake DNS. */
  email?: EmailSender;
  jobPollMs?: number;
  resolveHost?: Resolver;
  /** Free bytes on the data directory's file system (tests simulate a full disk). */
  freeDiskBytes?: (dir: string) => number;
  /**
   * The Liquid time limit (the spec's 1 s when absent). Test servers on a loaded machine allow more, since a
   * cold worker's first parse of a large template can take a second of wall time there; tests of the limit keep 1 s.
   */
  liquidRenderMs?: number;
}
