import type { Template } from 'liquidjs';
import { templateWords } from './data-paths.js';

/**
 * A parsed, instrumented template. Keeps its source so a worker-thread renderer can re-parse it
 * there (see LiquidEngine: the worker seam), and the template's words for warning paths.
 */
export class CompiledTemplate {
  readonly source: string;
  /** liquidjs nodes; only the engine that parsed them renders them. */
  readonly nodes: Template[];
  #words: ReadonlySet<string> | undefined;

  constructor(source: string, nodes: Template[]) {
    this.source = source;
    this.nodes = nodes;
  }

  /** Computed on the first missing variable only: most renders never need it. */
  words(): ReadonlySet<string> {
    this.#words ??= templateWords(this.source);
    return this.#words;
  }
}
