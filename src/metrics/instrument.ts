import type { MetricsRecorder } from './registry.js';

export interface RenderPort<J extends { page: { mode: string } }, R> {
  render(job: J): Promise<R>;
}

/** Wraps the renderer port production uses so every document render is counted and timed by mode and outcome. */
export function instrumentRenderer<J extends { page: { mode: string } }, R>(
  renderer: RenderPort<J, R>,
  metrics: MetricsRecorder,
): RenderPort<J, R> {
  return {
    async render(job) {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const result = await renderer.render(job);
        metrics.render(job.page.mode, 'ok', seconds());
        return result;
      } catch (err) {
        metrics.render(job.page.mode, outcomeOf(err), seconds());
        throw err;
      }
    },
  };
}

/** The error code of an AppError (bounded set), else `error`. */
function outcomeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]{1,40}$/.test(code) ? code : 'error';
}
