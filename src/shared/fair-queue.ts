/** The lane of work that names no tenant (they share it). */
export const NO_TENANT = '';

/**
 * Work waiting for one of a few shared slots, served fairly between tenants: the render pool's pages
 * (src/render/page-pool.ts) and the worker threads of the untrusted-file and e-invoice pools
 * (src/shared/fair-pool.ts). A free slot goes to the waiting tenant with the fewest slots in use, ties to
 * the one served longest ago, and within a tenant to its oldest waiter. So a team that queued many tasks
 * gets every other slot at most while another team waits, however many it queued first — and a lone task
 * of a second team gets the next free slot. Pure bookkeeping: the pool tells it which tenant took or gave
 * back a slot.
 */
export class FairQueue<T> {
  private readonly lanes = new Map<string, T[]>();
  private readonly inUse = new Map<string, number>();
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private waiting = 0;

  get size(): number {
    return this.waiting;
  }

  /** How many of `tenant`'s items wait. */
  /** How many a tenant has in use (started and not finished). */
  inUseOf(tenant: string): number {
    return this.inUse.get(tenant) ?? 0;
  }

  waitingOf(tenant: string): number {
    return this.lanes.get(tenant)?.length ?? 0;
  }

  push(tenant: string, item: T): void {
    const lane = this.lanes.get(tenant);
    if (lane) lane.push(item);
    else this.lanes.set(tenant, [item]);
    this.waiting += 1;
  }

  /** Takes a waiter out (it timed out or was aborted); false when it was not waiting. */
  remove(tenant: string, item: T): boolean {
    const lane = this.lanes.get(tenant);
    const index = lane?.indexOf(item) ?? -1;
    if (!lane || index < 0) return false;
    lane.splice(index, 1);
    this.waiting -= 1;
    if (lane.length > 0) return true;
    this.lanes.delete(tenant);
    if (!this.inUse.has(tenant)) this.lastServed.delete(tenant);
    return true;
  }

  /** The next waiter by the rule above, taken out of the queue; undefined when nobody waits. */
  next(eligible: (tenant: string) => boolean = () => true): { tenant: string; item: T } | undefined {
    let best: string | undefined;
    for (const tenant of this.lanes.keys()) {
      if (!eligible(tenant)) continue;
      if (best === undefined || this.before(tenant, best)) best = tenant;
    }
    if (best === undefined) return undefined;
    const lane = this.lanes.get(best) ?? [];
    const item = lane.shift() as T;
    if (lane.length === 0) this.lanes.delete(best);
    this.waiting -= 1;
    return { tenant: best, item };
  }

  /** Every waiter, in no particular order; the queue is empty afterwards. */
  drain(): T[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    this.waiting = 0;
    return all;
  }

  /** A tenant took a slot (straight away or as a waiter). */
  started(tenant: string): void {
    this.inUse.set(tenant, (this.inUse.get(tenant) ?? 0) + 1);
    this.lastServed.set(tenant, ++this.served);
  }

  /** A tenant gave a slot back. Tenants with nothing in use and nobody waiting are forgotten. */
  finished(tenant: string): void {
    const left = (this.inUse.get(tenant) ?? 1) - 1;
    if (left > 0) return void this.inUse.set(tenant, left);
    this.inUse.delete(tenant);
    if (!this.lanes.has(tenant)) this.lastServed.delete(tenant);
  }

  private before(a: string, b: string): boolean {
    const useA = this.inUse.get(a) ?? 0;
    const useB = this.inUse.get(b) ?? 0;
    if (useA !== useB) return useA < useB;
    return (this.lastServed.get(a) ?? 0) < (this.lastServed.get(b) ?? 0);
  }
}
