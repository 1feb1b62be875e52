import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from '../storage/index.js';
import type { Claim, KeyScope } from './store.js';
import { type IdempotentRequest, withIdempotency } from './with-idempotency.js';

/** A store that answers `claim` as told and records what the helper asked of it. */
function fakeStore(claim: Claim) {
  const calls: string[] = [];
  return {
    calls,
    store: {
      claim: async (scope: KeyScope, hash: string) => {
        calls.push(`claim ${scope.route} ${scope.key} ${hash.length}`);
        return claim;
      },
      complete: async (_trx: Db, scope: KeyScope, result: { documentId: string }) => {
        calls.push(`complete ${scope.key} ${result.documentId}`);
      },
      release: async (scope: KeyScope) => {
        calls.push(`release ${scope.key}`);
      },
    },
  };
}

const TRX = {} as Db;

function request(key: string | null, run: IdempotentRequest<string>['run']): IdempotentRequest<string> {
  return {
    key,
    scope: { teamId: 't', mode: 'live', route: 'POST /x' },
    body: { a: 1 },
    run,
    replay: async (first) => `replayed ${first.documentId} as ${first.answer}`,
  };
}

describe('withIdempotency', () => {
  it('without a key runs the work with nothing to remember, and never touches the store', async () => {
    const { store, calls } = fakeStore({ kind: 'proceed' });
    const answer = await withIdempotency(
      store,
      request(null, async (remember) => `ran ${remember === null}`),
    );
    assert.equal(answer, 'ran true');
    assert.deepEqual(calls, []);
  });

  it('claims the key for the body, runs the work and remembers its result in the work’s transaction', async () => {
    const { store, calls } = fakeStore({ kind: 'proceed' });
    const answer = await withIdempotency(
      store,
      request('k1', async (remember) => {
        await remember?.(TRX, { documentId: 'doc-1', answer: 'async' });
        return 'ran';
      }),
    );
    assert.equal(answer, 'ran');
    assert.deepEqual(calls, ['claim POST /x k1 64', 'complete k1 doc-1']);
  });

  it('replays the first answer without running the work', async () => {
    const first = { kind: 'replay', documentId: 'doc-0', answer: 'url', createdAt: 'then' } as const;
    const { store, calls } = fakeStore(first);
    const answer = await withIdempotency(
      store,
      request('k2', async () => assert.fail('the work ran again')),
    );
    assert.equal(answer, 'replayed doc-0 as url');
    assert.deepEqual(calls, ['claim POST /x k2 64']);
  });

  it('releases the key when the work fails, so the same request may be sent again', async () => {
    const { store, calls } = fakeStore({ kind: 'proceed' });
    await assert.rejects(
      withIdempotency(
        store,
        request('k3', async () => {
          throw new Error('render failed');
        }),
      ),
      /render failed/,
    );
    assert.deepEqual(calls, ['claim POST /x k3 64', 'release k3']);
  });
});
