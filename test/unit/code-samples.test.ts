import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Quire } from '../../clients/typescript/src/index.js';
import { CLIENT_CALLS } from '../../src/docs/code-samples.js';

/** The reference's TypeScript samples (x-codeSamples, shown at /docs) call methods the client really has. */
describe('client calls in the reference samples', () => {
  it('names only methods of Quire', () => {
    const quire = new Quire({ baseUrl: 'http://127.0.0.1:9', apiKey: 'qk_test_unused' });
    for (const [operationId, call] of Object.entries(CLIENT_CALLS)) {
      const calls = [...call.matchAll(/quire\.([\w.]+)\(/g)].map((match) => match[1] ?? '');
      assert.ok(calls.length > 0, `${operationId}: no client call in ${call}`);
      for (const name of calls) {
        const method = name
          .split('.')
          .reduce<unknown>((owner, part) => (owner as Record<string, unknown>)?.[part], quire);
        assert.equal(
          typeof method,
          'function',
          `${operationId}: quire.${name} is not a method of the client`,
        );
      }
    }
  });
});
