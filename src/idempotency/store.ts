import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import type { IdempotencyKeysTable } from './tables.js';

/** Spec "Limits": a key is remembered 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * How long a running request holds its key. Longer than any request can take (30 s render limit plus
 * waiting), so only a request whose process died loses it, and its key becomes usable again.
 */
export const IDEMPOTENCY_LEASE_MS = 2 * 60 * 1000;

/** Spec POST /pdf rule 3: 1 to 255 printable ASCII characters without spaces. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface KeyScope {
  teamId: string;
  mode: 'live' | 'test';
  route: string;
  key: string;
}

export type Answer = NonNullable<IdempotencyKeysTable['answer']>;

/** What to do with a request that carries a key. */
export type Claim =
  /** First use (or a retry after a failure or a crash): do the work, then `complete` or `release`. */
  | { kind: 'proceed' }
  /** The same request already succeeded: answer as it was answered, without doing the work again. */
  | { kind: 'replay'; documentId: string; answer: Answer; createdAt: string };

/** The header's value checked (invalid_request when malformed), or null when none was sent. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(value)) {
    throw new AppError(
      'invalid_request',
      'Header "Idempotency-Key" must be 1 to 255 printable ASCII characters without spaces.',
      { field: 'Idempotency-Key' },
    );
  }
  return value;
}

/** The durable record of idempotency keys; every change is one guarded statement. */
export class IdempotencyStore {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /**
   * Claims the key for a request with this body hash: proceed, replay, or refuse with
   * idempotency_mismatch (422, other body) / idempotency_conflict (409, the first request still runs).
   */
  async claim(scope: KeyScope, hash: string): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.insertRunning(scope, hash)) return { kind: 'proceed' };
      const row = await this.find(scope);
      if (!row) continue;
      const now = this.deps.clock.now();
      if (Date.parse(row.expires_at) <= now.getTime()) {
        await this.deleteIf(scope, row.created_at);
        continue;
      }
      if (row.body_hash !== hash) {
        throw new AppError(
          'idempotency_mismatch',
          'This Idempotency-Key was used with a different request body in the last 24 hours. Use a new key for a new request.',
        );
      }
      if (row.status === 'done' && row.document_id && row.answer) {
        return { kind: 'replay', documentId: row.document_id, answer: row.answer, createdAt: row.created_at };
      }
      if (row.lease_until && Date.parse(row.lease_until) > now.getTime()) {
        throw new AppError(
          'idempotency_conflict',
          'A request with this Idempotency-Key is still running. Retry after it has finished.',
          undefined,
          { 'retry-after': '1' },
        );
      }
      if (await this.takeOver(scope, row.lease_until)) return { kind: 'proceed' };
    }
    throw new AppError(
      'idempotency_conflict',
      'Another request with this Idempotency-Key is starting. Retry.',
    );
  }

  /** Records the result in the transaction that records the document, so both happen or neither. */
  async complete(trx: Db, scope: KeyScope, result: { documentId: string; answer: Answer }): Promise<void> {
    await this.where(trx.updateTable('idempotency_keys'), scope)
      .set({ status: 'done', lease_until: null, document_id: result.documentId, answer: result.answer })
      .execute();
  }

  /** The request failed before anything was kept for it: the key may be used again. */
  async release(scope: KeyScope): Promise<void> {
    await this.where(this.deps.db.deleteFrom('idempotency_keys'), scope)
      .where('status', '=', 'running')
      .execute();
  }

  /** Forgets keys older than the window (retention sweep). */
  async sweep(now: Date): Promise<number> {
    const result = await this.deps.db
      .deleteFrom('idempotency_keys')
      .where('expires_at', '<=', now.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async insertRunning(scope: KeyScope, hash: string): Promise<boolean> {
    const now = this.deps.clock.now();
    const result = await this.deps.db
      .insertInto('idempotency_keys')
      .values({
        team_id: scope.teamId,
        mode: scope.mode,
        route: scope.route,
        key: scope.key,
        body_hash: hash,
        status: 'running',
        lease_until: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS).toISOString(),
        document_id: null,
        answer: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS).toISOString(),
      })
      .onConflict((oc) => oc.columns(['team_id', 'mode', 'route', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  private async find(scope: KeyScope): Promise<IdempotencyKeysTable | null> {
    const row = await this.where(
      this.deps.db.selectFrom('idempotency_keys').selectAll(),
      scope,
    ).executeTakeFirst();
    return row ?? null;
  }

  /** A running key whose lease ran out (its process died): this request takes it over. */
  private async takeOver(scope: KeyScope, previousLease: string | null): Promise<boolean> {
    const lease = new Date(this.deps.clock.now().getTime() + IDEMPOTENCY_LEASE_MS).toISOString();
    let query = this.where(this.deps.db.updateTable('idempotency_keys'), scope)
      .set({ lease_until: lease })
      .where('status', '=', 'running');
    query =
      previousLease === null
        ? query.where('lease_until', 'is', null)
        : query.where('lease_until', '=', previousLease);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private async deleteIf(scope: KeyScope, createdAt: string): Promise<void> {
    await this.where(this.deps.db.deleteFrom('idempotency_keys'), scope)
      .where('created_at', '=', createdAt)
      .execute();
  }

  private where<
    Q extends {
      where(column: 'team_id' | 'mode' | 'route' | 'key', op: '=', value: string): Q;
    },
  >(query: Q, scope: KeyScope): Q {
    return query
      .where('team_id', '=', scope.teamId)
      .where('mode', '=', scope.mode)
      .where('route', '=', scope.route)
      .where('key', '=', scope.key);
  }
}
