import type { Template } from 'liquidjs';
import { templateWords } from './data-paths.js';

/**
 * A parsed, instrumented template, with its source (for the template's words in warning paths)
 * and its node count (for the cache's byte estimate). Lives in the thread that parsed it.
 */
export class CompiledTemplate {
  readonly source: string;
  /** liquidjs nodes; only the engine that parsed them renders them. */
  readonly nodes: Template[];
  /** Parsed nodes, nested ones included. */
  readonly nodeCount: number;
  #words: ReadonlySet<string> | undefined;

  constructor(source: string, nodes: Template[], nodeCount: number) {
    this.source = source;
    this.nodes = nodes;
    this.nodeCount = nodeCount;
  }

  /** Computed on the first missing variable only: most renders never need it. */
  words(): ReadonlySet<string> {
    this.#words ??= templateWords(this.source);
    return this.#words;
  }
}
