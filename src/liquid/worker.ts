import { workerData } from 'piscina';
import { AppError } from '../shared/errors.js';
import { markStarted } from '../shared/task-deadline.js';
import { shareDateTimeFormats } from './intl-cache.js';
import type { LiquidReply, LiquidTask, TaskFacts, WorkerSettings } from './protocol.js';
import { LiquidRenderer, type LiquidResult } from './renderer.js';

/**
 * A Liquid pool worker (see engine.ts): one LiquidRenderer per thread, with its own byte-bounded
 * caches of parsed templates, date patterns and Intl formatters. Tasks are synchronous, so the
 * main thread's hard limit can only stop one by terminating this thread.
 */
shareDateTimeFormats();
const settings = workerData as WorkerSettings;
const renderer = new LiquidRenderer({
  locale: settings.locale,
  timeZone: settings.timeZone,
  renderMs: settings.renderMs,
  cacheSize: settings.cacheEntries,
  cacheBytes: settings.cacheBytes,
});

/**
 * A first render compiles liquidjs's code paths and loads Intl data for the filters (≈ 0.2 s on a
 * busy machine). Done once while the worker starts, so it never counts against a task's time limit.
 * Best effort: on a starved machine it can pass the render limit itself, which must not stop the worker.
 */
function warmUp(): void {
  try {
    renderer.renderSource(
      '{% for i in items %}{{ i.n | money: "EUR" }} {{ i.n | number: 2 }} {{ i.n | percent }} ' +
        '{{ d | date_format: "long" }} {{ d | date_format: "dd.MM.yyyy HH:mm" }} {{ d | date: "%Y" }}' +
        '{% if i.n > 1 %}{{ i.name | upcase | escape }}{% endif %}{% endfor %}{{ missing }}',
      { items: [{ n: 1.5, name: 'a' }, { n: 2 }], d: '2026-11-02T10:30:00Z' },
    );
  } catch {
    // Only slower first tasks follow.
  }
}
warmUp();

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
    parsed: task.kind === 'check' || renderer.parses > parsesBefore,
    cache: renderer.cacheBytes(),
  });
  try {
    const result = run(task);
    return { ...facts(), ok: true, html: result?.html ?? '', warnings: result?.warnings ?? [] };
  } catch (err) {
    return failure(err, facts());
  }
}
