/**
 * Per-team render slots (spec: PDFs rendering at once per team; background PDFs share the slots and leave
 * one free for direct requests when the plan has more than one). In-memory for one process, behind a
 * small interface a shared store can implement later.
 */
export interface SlotLease {
  release(): void;
}

export interface TeamSlots {
  /** A lease, or null when the team already uses its limit (for background work: limit minus one). */
  tryAcquire(teamId: string, limit: number, kind: 'direct' | 'background'): SlotLease | null;
  inUse(teamId: string): number;
}

export class MemoryTeamSlots implements TeamSlots {
  private readonly used = new Map<string, number>();

  tryAcquire(teamId: string, limit: number, kind: 'direct' | 'background'): SlotLease | null {
    const effective = kind === 'background' && limit > 1 ? limit - 1 : limit;
    const current = this.used.get(teamId) ?? 0;
    if (current >= effective) return null;
    this.used.set(teamId, current + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const n = (this.used.get(teamId) ?? 1) - 1;
        if (n <= 0) this.used.delete(teamId);
        else this.used.set(teamId, n);
      },
    };
  }

  inUse(teamId: string): number {
    return this.used.get(teamId) ?? 0;
  }
}
