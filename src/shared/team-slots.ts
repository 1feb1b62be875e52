/**
 * Per-team render slots (spec: PDFs rendering at once per team; background PDFs share the slots and leave
 * one free for direct requests when the plan has more than one). In memory for one process (SQLite installs);
 * several processes on one PostgreSQL share leases in the database (storage/render-leases.ts).
 */
export interface SlotLease {
  release(): Promise<void>;
}

export interface TeamSlots {
  /** A lease, or null when the team already uses its limit (for background work: limit minus one). */
  tryAcquire(teamId: string, limit: number, kind: SlotKind): Promise<SlotLease | null>;
  /** Gives up every lease this process holds (shutdown). */
  close(): Promise<void>;
}

export type SlotKind = 'direct' | 'background';

/** The slots a request of `kind` may fill: background work leaves one for direct requests when there are two or more. */
export function effectiveSlotLimit(limit: number, kind: SlotKind): number {
  return kind === 'background' && limit > 1 ? limit - 1 : limit;
}

export class MemoryTeamSlots implements TeamSlots {
  private readonly used = new Map<string, number>();

  tryAcquire(teamId: string, limit: number, kind: SlotKind): Promise<SlotLease | null> {
    const current = this.used.get(teamId) ?? 0;
    if (current >= effectiveSlotLimit(limit, kind)) return Promise.resolve(null);
    this.used.set(teamId, current + 1);
    let released = false;
    return Promise.resolve({
      release: () => {
        if (!released) {
          released = true;
          const n = (this.used.get(teamId) ?? 1) - 1;
          if (n <= 0) this.used.delete(teamId);
          else this.used.set(teamId, n);
        }
        return Promise.resolve();
      },
    });
  }

  close(): Promise<void> {
    this.used.clear();
    return Promise.resolve();
  }
}
