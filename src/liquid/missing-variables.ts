import {
  type Context,
  type Emitter,
  Output,
  type Template,
  toValueSync,
  UndefinedVariableError,
} from 'liquidjs';
import type { Warning } from '../shared/warnings.js';
import { buildDataPaths } from './data-paths.js';
import { LIQUID_LIMITS, MAX_MISSING_VARIABLES } from './limits.js';
import { OutputLimitError } from './template-error.js';
import { missingVariablePath } from './variable-path.js';

/**
 * Missing-variable warnings (spec "Warning": missing_variable).
 *
 * liquidjs (pinned at 10.30.1) has no hook for "undefined while printing", and its static analysis
 * cannot tell printed from tested values nor see which branch ran. So renders run with
 * `strictVariables` and every parsed node's `render` is wrapped once, at parse time: an
 * UndefinedVariableError escaping a printing node (`{{ }}`, `{% echo %}`, `{% for %}`/`{% tablerow %}`
 * over a list) is recorded, and that node alone is rendered again non-strictly, which is exactly what
 * a normal render would have produced. `{% if %}`, `unless` and `case` evaluate leniently
 * (`lenientIf`), as does a `default` filter; nulls never raise. Tags without children (assign,
 * cycle, increment …) run non-strict from the start, so their side effects happen once.
 */

type NodeKind = 'print' | 'container' | 'plain' | 'text';

const PRINTING_TAGS = new Set(['echo', 'for', 'tablerow']);

/**
 * Each miss costs an exception, and liquidjs builds its message from the whole template source
 * (O(template size)). So checking stops where it can add nothing or would cost too much: once 20
 * paths are found; after 200 misses in a render, fewer for big templates (about 10 M characters of
 * work: 19 misses for a 500 KB template, never fewer than 10); and for a node after its 3rd miss (a loop printing the
 * same missing field for every item).
 */
const MAX_MISSES_PER_RENDER = 200;
const MISS_BUDGET_CHARS = 10_000_000;
const MAX_MISSES_PER_NODE = 3;

function missBudget(sourceLength: number): number {
  return Math.max(
    10,
    Math.min(MAX_MISSES_PER_RENDER, Math.floor(MISS_BUDGET_CHARS / Math.max(1, sourceLength))),
  );
}

/** One render's findings: de-duplicated paths in first-seen order, at most 20. */
export class MissingVariableCollector {
  readonly #paths = new Set<string>();
  readonly #missesByNode = new Map<Template, number>();
  readonly #maxMisses: number;
  #misses = 0;
  readonly #data: object;
  readonly #words: () => ReadonlySet<string>;
  #dataPaths: WeakMap<object, string> | undefined;

  constructor(data: object, words: () => ReadonlySet<string>, sourceLength: number) {
    this.#data = data;
    this.#words = words;
    this.#maxMisses = missBudget(sourceLength);
  }

  /** Whether `node` should still be rendered strictly (see the budgets above). */
  checks(node: Template): boolean {
    return (
      this.#paths.size < MAX_MISSING_VARIABLES &&
      this.#misses < this.#maxMisses &&
      (this.#missesByNode.get(node) ?? 0) < MAX_MISSES_PER_NODE
    );
  }

  countMiss(node: Template): void {
    this.#misses += 1;
    this.#missesByNode.set(node, (this.#missesByNode.get(node) ?? 0) + 1);
  }

  record(error: UndefinedVariableError, ctx: Context): void {
    if (this.#paths.size >= MAX_MISSING_VARIABLES) return;
    const token = (error as unknown as { token: unknown }).token;
    if (!isPropertyAccess(token)) return;
    const path = missingVariablePath(token, ctx, (value) => this.#lookup(value));
    if (path !== undefined) this.#paths.add(path);
  }

  warnings(): Warning[] {
    return [...this.#paths].map((path) => ({ code: 'missing_variable', path }));
  }

  #lookup(value: object): string | undefined {
    this.#dataPaths ??= buildDataPaths(this.#data, this.#words());
    return this.#dataPaths.get(value);
  }
}

function isPropertyAccess(token: unknown): token is Parameters<typeof missingVariablePath>[0] {
  return typeof token === 'object' && token !== null && 'props' in token && Array.isArray(token.props);
}

/** Renders carry their collector through the data object they were given (`ctx.environments`). */
const collectors = new WeakMap<object, MissingVariableCollector>();

export function attachCollector(env: object, collector: MissingVariableCollector): void {
  collectors.set(env, collector);
}

export function detachCollector(env: object): void {
  collectors.delete(env);
}

function kindOf(node: Template): NodeKind {
  if (node instanceof Output) return 'print';
  if (!('name' in node)) return 'text';
  const name = (node as { name?: unknown }).name;
  if (typeof name === 'string' && PRINTING_TAGS.has(name)) return 'print';
  return typeof node.children === 'function' ? 'container' : 'plain';
}

function usesDefaultFilter(node: Template): boolean {
  const filters = (node as { value?: { filters?: Array<{ name: string }> } }).value?.filters ?? [];
  return filters.some((f) => f.name === 'default');
}

/**
 * A print node reports what it prints: `{{ }}`/`echo` unless a `default` filter covers it; a loop
 * only its list (a missing `limit:`/`offset:` value is not a printed variable).
 */
function reportable(node: Template, error: UndefinedVariableError): boolean {
  const collection = (node as { collection?: unknown }).collection;
  if (collection !== undefined) return (error as unknown as { token: unknown }).token === collection;
  return !usesDefaultFilter(node);
}

/** Spec "Limits": a render over 64 MB fails; liquidjs does not count the HTML it emits. */
function checkOutput(emitter: Emitter): void {
  if (typeof emitter.buffer === 'string' && emitter.buffer.length > LIQUID_LIMITS.memoryBytes) {
    throw new OutputLimitError();
  }
}

/** `ctx.push` returns the new depth: a public way to read it, so a failed attempt can be unwound. */
function scopeDepth(ctx: Context): number {
  const depth = ctx.push({}) - 1;
  ctx.pop();
  return depth;
}

function unwind(ctx: Context, emitter: Emitter, depth: number, written: number): void {
  while (scopeDepth(ctx) > depth) ctx.pop();
  if (typeof emitter.buffer === 'string' && emitter.buffer.length > written) {
    emitter.buffer = emitter.buffer.slice(0, written);
  }
}

type RenderFn = (ctx: Context, emitter: Emitter) => unknown;

function* renderNonStrict(original: RenderFn, ctx: Context, emitter: Emitter): Generator<unknown, unknown> {
  const strict = ctx.strictVariables;
  ctx.strictVariables = false;
  try {
    return yield original(ctx, emitter);
  } finally {
    ctx.strictVariables = strict;
  }
}

function guarded(node: Template, kind: NodeKind, original: RenderFn): RenderFn {
  return function* guardedRender(ctx: Context, emitter: Emitter): Generator<unknown, unknown> {
    const collector = collectors.get(ctx.environments);
    if (kind === 'text' || !collector || !ctx.strictVariables) {
      const result = yield original(ctx, emitter);
      checkOutput(emitter);
      return result;
    }
    if (kind === 'plain' || !collector.checks(node)) return yield* renderNonStrict(original, ctx, emitter);
    const depth = scopeDepth(ctx);
    const written = typeof emitter.buffer === 'string' ? emitter.buffer.length : 0;
    try {
      const result = yield original(ctx, emitter);
      checkOutput(emitter);
      return result;
    } catch (err) {
      if (!(err instanceof UndefinedVariableError)) throw err;
      collector.countMiss(node);
      unwind(ctx, emitter, depth, written);
      ctx.strictVariables = false;
      try {
        if (kind === 'print' && reportable(node, err)) collector.record(err, ctx);
      } finally {
        ctx.strictVariables = true;
      }
      return yield* renderNonStrict(original, ctx, emitter);
    }
  };
}

function childrenOf(node: Template): Template[] {
  if (typeof node.children !== 'function') return [];
  return toValueSync(node.children(false, true)) as Template[];
}

/** Wraps every node of a parsed template once (text nodes only get the output-size check); returns the node count. */
export function instrument(templates: Template[]): number {
  let count = 0;
  const stack = [...templates];
  while (stack.length > 0) {
    const node = stack.pop() as Template;
    const original = node.render.bind(node) as RenderFn;
    node.render = guarded(node, kindOf(node), original);
    stack.push(...childrenOf(node));
    count += 1;
  }
  return count;
}
