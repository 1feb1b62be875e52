import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import { effectiveSlotLimit, type SlotKind, type SlotLease, type TeamSlots } from '../shared/team-slots.js';
import { type Db, lockKey } from './db.js';

/** One render slot in use: which team, which process holds it, until when (ms since the epoch) unless renewed. */
export interface RenderLeasesTable {
  id: string;
  team_id: string;
  holder: string;
  expires_at: number;
}

export interface RenderLeasesTables {
  render_leases: RenderLeasesTable;
}

/**
 * How long a lease lives without renewal. A process renews its leases every third of it, so a live render
 * never loses its slot; a process killed without releasing (kill -9, power loss) frees its team's slots at
 * most this long after its last renewal.
 */
export const RENDER_LEASE_TTL_MS = 30_000;

export interface DatabaseTeamSlotsOptions {
  ttlMs?: number;
  nowMs?: () => number;
  onError?: (err: unknown) => void;
}

/**
 * Render slots shared by every process on one PostgreSQL. Acquiring is one transaction under the team's
 * advisory lock: count the team's live leases and insert one only while under the limit, so the N+1th render
 * is refused whichever process it reaches (4 round trips: begin, lock, insert, commit). One heartbeat per
 * process (not per render) renews all of its leases; release deletes the row (1 round trip).
 */
export class DatabaseTeamSlots implements TeamSlots {
  /** Host, pid and a random part: a restarted process with a reused pid is another holder. */
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly ttlMs: number;
  private readonly nowMs: () => number;
  private readonly heartbeat: NodeJS.Timeout;
  /** Leases this process holds: only these are renewed, so one whose release failed still expires. */
  private readonly held = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly options: DatabaseTeamSlotsOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? RENDER_LEASE_TTL_MS;
    this.nowMs = options.nowMs ?? Date.now;
    this.heartbeat = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.ttlMs / 3)));
    this.heartbeat.unref();
  }

  async tryAcquire(teamId: string, limit: number, kind: SlotKind): Promise<SlotLease | null> {
    const id = randomBytes(12).toString('hex');
    const now = this.nowMs();
    const max = effectiveSlotLimit(limit, kind);
    const inserted = await this.db.transaction().execute(async (trx) => {
      await lockKey(trx, `render-slots:${teamId}`);
      // One statement after the lock (its snapshot sees every lease committed before): insert the new lease
      // only while the team's live ones are under the limit. Expired rows are ignored here, swept by the heartbeat.
      const result = await sql<{ id: string }>`
        insert into render_leases (id, team_id, holder, expires_at)
        select ${id}, ${teamId}, ${this.holder}, ${now + this.ttlMs}
        where (select count(*) from render_leases where team_id = ${teamId} and expires_at > ${now}) < ${max}
        returning id`.execute(trx);
      return result.rows.length === 1;
    });
    if (!inserted) return null;
    this.held.add(id);
    return {
      release: async () => {
        if (!this.held.delete(id)) return;
        // A failed delete is not the render's failure: the lease is no longer renewed and expires.
        await this.db
          .deleteFrom('render_leases')
          .where('id', '=', id)
          .execute()
          .catch((err: unknown) => this.options.onError?.(err));
      },
    };
  }

  /**
   * Renews every lease of this process in one statement and deletes expired ones (of dead processes) in
   * another; a failed beat is retried at the next one.
   */
  private async renew(): Promise<void> {
    const now = this.nowMs();
    try {
      if (this.held.size > 0)
        await this.db
          .updateTable('render_leases')
          .set({ expires_at: now + this.ttlMs })
          .where('id', 'in', [...this.held])
          .execute();
      await this.db.deleteFrom('render_leases').where('expires_at', '<=', now).execute();
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  /** Stops renewing and gives back whatever this process still holds (graceful shutdown). */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.held.clear();
    await this.db.deleteFrom('render_leases').where('holder', '=', this.holder).execute();
  }
}
