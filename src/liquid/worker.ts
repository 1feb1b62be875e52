import { workerData } from 'piscina';
import { AppError } from '../shared/errors.js';
import type { LiquidReply, LiquidTask, TaskFacts, WorkerSettings } from './protocol.js';
import { markStarted } from './protocol.js';
import { LiquidRenderer, type LiquidResult } from './renderer.js';

/**
 * A Liquid pool worker (see engine.ts): one LiquidRenderer per thread, with its own byte-bounded
 * caches of parsed templates, date patterns and Intl formatters. Tasks are synchronous, so the
 * main thread's hard limit can only stop one by terminating this thread.
 */
const settings = workerData as WorkerSettings;
const renderer = new LiquidRenderer({
  locale: settings.locale,
  timeZone: settings.timeZone,
  renderMs: settings.renderMs,
  cacheSize: settings.cacheEntries,
  cacheBytes: settings.cacheBytes,
});

function run(task: LiquidTask): LiquidResult | undefined {
  switch (task.kind) {
    case 'check':
      renderer.parse(task.source);
      return undefined;
    case 'source':
      return renderer.renderSource(task.source, task.data);
    case 'stored':
      return renderer.render(renderer.getOrParse(task.key, task.source), task.data);
  }
}

function failure(err: unknown, facts: TaskFacts): LiquidReply {
  // The renderer only throws AppError for template problems; anything else is a bug, reported as such.
  if (!(err instanceof AppError)) throw err;
  return { ...facts, ok: false, code: err.code, message: err.message, details: err.details };
}

export default function handle(task: LiquidTask): LiquidReply {
  markStarted(task);
  const parsesBefore = renderer.parses;
  const facts = () => ({
    parsed: task.kind !== 'stored' || renderer.parses > parsesBefore,
    cache: renderer.cacheBytes(),
  });
  try {
    const result = run(task);
    return { ...facts(), ok: true, html: result?.html ?? '', warnings: result?.warnings ?? [] };
  } catch (err) {
    return failure(err, facts());
  }
}
