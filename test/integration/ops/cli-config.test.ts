import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quire } from './cli-quire.js';

describe('quire config --effective', () => {
  it('prints the values in effect and hides secrets', async () => {
    const token = 'metrics-secret-value-42';
    const result = await quire(
      { QUIRE_PORT: '4321', QUIRE_METRICS_TOKEN: token, QUIRE_TRUST_PROXY: '10.0.0.0/8' },
      'config',
      '--effective',
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^QUIRE_PORT=4321$/m);
    assert.match(result.stdout, /^QUIRE_TRUST_PROXY=\["10\.0\.0\.0\/8"\]$/m);
    assert.match(result.stdout, /^QUIRE_METRICS_TOKEN=\(set, hidden\)$/m);
    assert.ok(!result.stdout.includes(token));
  });
});
