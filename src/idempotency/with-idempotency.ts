import type { Db } from '../storage/index.js';
import { bodyHash } from './canonical.js';
import type { Answer, Claim, IdempotencyStore, KeyScope } from './store.js';

/** What the first request under a key was answered with, for the replay of a retry. */
export type Replay = Omit<Extract<Claim, { kind: 'replay' }>, 'kind'>;

/**
 * Records the request's result under its key in the transaction that keeps the result (a document, a
 * batch), so both commit or neither does. Null when the request carried no key.
 */
export type Remember = ((trx: Db, result: { documentId: string; answer: Answer }) => Promise<void>) | null;

export interface IdempotentRequest<T> {
  /** The request's Idempotency-Key (parseIdempotencyKey), or null when it sent none. */
  key: string | null;
  scope: Omit<KeyScope, 'key'>;
  /** The body as sent: a retry must match it, whatever the route normalises afterwards. */
  body: unknown;
  /** Does the work, handing `remember` to the transaction that keeps its result. */
  run(remember: Remember): Promise<T>;
  /** Answers as the first request did, without doing the work again. */
  replay(first: Replay): Promise<T>;
}

/**
 * Every route that takes an Idempotency-Key goes through here (spec: Idempotency): the key is claimed for
 * this body; the same request that already succeeded is replayed; otherwise the work runs, and if it fails
 * before anything was kept the key is released so the same request may be sent again. Without a key the
 * work just runs.
 */
export async function withIdempotency<T>(
  store: Pick<IdempotencyStore, 'claim' | 'complete' | 'release'>,
  request: IdempotentRequest<T>,
): Promise<T> {
  if (request.key === null) return request.run(null);
  const scope: KeyScope = { ...request.scope, key: request.key };
  const claim = await store.claim(scope, bodyHash(request.body));
  if (claim.kind === 'replay') return request.replay(claim);
  try {
    return await request.run((trx, result) => store.complete(trx, scope, result));
  } catch (err) {
    await store.release(scope);
    throw err;
  }
}
