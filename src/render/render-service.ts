import type { Config } from '../config/config.js';
import { AppError } from '../shared/errors.js';
import type { BrowserSupervisor } from './browser-supervisor.js';
import type { RenderLogger } from './logger.js';
import { printMode } from './print/index.js';
import { Renderer, type RendererConfig, type RendererStats } from './renderer.js';
import type { RenderJob, RenderResult } from './types.js';

/** Why the renderer cannot take renders right now (GET /readyz), or null when it can. */
export type RendererUnreadiness =
  | 'chromium starting'
  | 'chromium down or relaunching'
  | 'shutting down'
  | null;

/**
 * The process's one renderer, started on first use or by `warm()` at server start (so the first PDF
 * is fast), with both mode strategies registered. A failed start is retried on the next render.
 */
export class RenderService {
  private starting: Promise<Renderer> | null = null;
  private started: Renderer | null = null;
  /** The last start failed (Chromium could not be launched); the next render tries again. */
  private startFailed = false;
  private stopping = false;
  /** Closed: a render asked for now (work started before shutdown and finishing after it) starts no Chromium. */
  private closed = false;

  constructor(
    private readonly config: Config,
    private readonly log: RenderLogger,
    /** A Chromium launched early (render/early-start.ts), used by the first start only. */
    private launched: Promise<BrowserSupervisor> | null = null,
    /**
     * A renderer that someone else starts and closes, asked for on the first render: this service renders on
     * it and leaves it running when it closes or shuts down (the tests share one among a process's servers).
     */
    private readonly borrowed: (() => Promise<Renderer>) | null = null,
  ) {}

  /** A renderer with this service's configuration: print mode registered. */
  static startRenderer(config: RendererConfig, log: RenderLogger, supervisor?: Promise<BrowserSupervisor>) {
    return Renderer.start(config, log, {
      strategies: { print: printMode },
      ...(supervisor ? { supervisor } : {}),
    });
  }

  private get(): Promise<Renderer> {
    if (this.closed)
      return Promise.reject(new AppError('service_busy', 'Quire is shutting down; retry in a few seconds.'));
    if (!this.starting) {
      const supervisor = this.launched ?? undefined;
      this.launched = null;
      this.starting = (
        this.borrowed ? this.borrowed() : RenderService.startRenderer(this.config, this.log, supervisor)
      ).then(
        (renderer) => {
          this.started = renderer;
          this.startFailed = false;
          if (this.stopping) this.owned?.beginShutdown();
          return renderer;
        },
        (err: unknown) => {
          this.starting = null;
          this.startFailed = true;
          throw err;
        },
      );
    }
    return this.starting;
  }

  async warm(): Promise<void> {
    await this.get();
  }

  async render(job: RenderJob): Promise<RenderResult> {
    return (await this.get()).render(job);
  }

  async stats(): Promise<RendererStats | null> {
    return this.starting ? (await this.starting).stats() : null;
  }

  /**
   * Readiness: not started yet is ready (it starts on the first render); a start under way or failed,
   * a Chromium that is down or being relaunched, and shutdown are not.
   */
  unreadiness(): RendererUnreadiness {
    if (this.stopping) return 'shutting down';
    if (!this.starting) return this.startFailed ? 'chromium down or relaunching' : null;
    if (!this.started) return 'chromium starting';
    return this.started.isReady() ? null : 'chromium down or relaunching';
  }

  /** Shutdown has begun: renders in flight finish; a Chromium lost now is not relaunched. */
  beginShutdown(): void {
    this.stopping = true;
    this.owned?.beginShutdown();
  }

  async close(): Promise<void> {
    this.closed = true;
    const starting = this.borrowed ? null : this.starting;
    this.starting = null;
    this.started = null;
    if (starting) await (await starting.catch(() => null))?.close();
  }

  /** The started renderer when this service owns it; a borrowed one is shut down and closed by its owner. */
  private get owned(): Renderer | null {
    return this.borrowed ? null : this.started;
  }
}
