import type { Core } from '../core.js';

/**
 * A group of operations (`quire.templates`, `quire.webhooks`, …). Adding one: a file beside this one with a
 * class extending Resource whose methods call `this.core.api` and `unwrap`, and one property on Quire
 * (src/client.ts).
 */
export abstract class Resource {
  protected readonly core: Core;

  constructor(core: Core) {
    this.core = core;
  }
}
