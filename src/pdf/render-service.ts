import type { Config } from '../config/config.js';
import { Renderer, type RendererStats, type RenderLogger } from '../render/index.js';
import { printMode } from '../render/print/index.js';
import type { RenderJob, RenderResult } from '../render/types.js';

/**
 * The process's one renderer, started on first use or by `warm()` at server start (so the first PDF
 * is fast), with both mode strategies registered. A failed start is retried on the next render.
 */
export class RenderService {
  private starting: Promise<Renderer> | null = null;

  constructor(
    private readonly config: Config,
    private readonly log: RenderLogger,
  ) {}

  private get(): Promise<Renderer> {
    if (!this.starting) {
      this.starting = Renderer.start(this.config, this.log, { strategies: { print: printMode } }).catch(
        (err: unknown) => {
          this.starting = null;
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

  async close(): Promise<void> {
    const starting = this.starting;
    this.starting = null;
    if (starting) await (await starting.catch(() => null))?.close();
  }
}
