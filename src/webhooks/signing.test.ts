import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { createSecretBox } from './secret-box.js';
import { generateWebhookSecret, secretPrefix, signatureHeader, verifySignature } from './signing.js';

describe('webhook signing', () => {
  const body = '{"id":"evt_1","type":"pdf.created"}';

  it('signs t.body with HMAC-SHA256 in the spec form', () => {
    const header = signatureHeader(['whsec_a'], 1_700_000_000, body);
    const expected = createHmac('sha256', 'whsec_a').update(`1700000000.${body}`).digest('hex');
    assert.equal(header, `t=1700000000,v1=${expected}`);
  });

  it('carries one v1 per secret and verifies against either', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], 1_700_000_000, body);
    assert.equal(header.split(',').filter((p) => p.startsWith('v1=')).length, 2);
    const now = { nowSeconds: 1_700_000_010 };
    assert.equal(verifySignature(header, 'whsec_new', body, now).ok, true);
    assert.equal(verifySignature(header, 'whsec_old', body, now).ok, true);
    assert.deepEqual(verifySignature(header, 'whsec_other', body, now), { ok: false, reason: 'mismatch' });
  });

  it('refuses a changed body, an old timestamp and a malformed header', () => {
    const header = signatureHeader(['whsec_a'], 1_700_000_000, body);
    assert.equal(verifySignature(header, 'whsec_a', `${body} `, { nowSeconds: 1_700_000_000 }).ok, false);
    assert.deepEqual(verifySignature(header, 'whsec_a', body, { nowSeconds: 1_700_000_301 }), {
      ok: false,
      reason: 'too_old',
    });
    assert.deepEqual(verifySignature('v1=abc', 'whsec_a', body, { nowSeconds: 0 }), {
      ok: false,
      reason: 'malformed',
    });
  });

  it('generates whsec_ secrets with at least 32 random characters', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    assert.match(a, /^whsec_[0-9A-Za-z]{32,}$/);
    assert.notEqual(a, b);
    assert.equal(secretPrefix(a), a.slice(0, 10));
  });

  it('encrypts secrets at rest, recoverable only with the same server secret', () => {
    const box = createSecretBox(Buffer.alloc(32, 1));
    const secret = generateWebhookSecret();
    const sealed = box.seal(secret);
    assert.ok(!sealed.includes(secret.slice(6)));
    assert.notEqual(box.seal(secret), sealed, 'random IV per seal');
    assert.equal(box.open(sealed), secret);
    assert.throws(() => createSecretBox(Buffer.alloc(32, 2)).open(sealed));
    // Another purpose (certificate keys) derives another key from the same server secret.
    assert.throws(() => createSecretBox(Buffer.alloc(32, 1), 'quire certificate keys v1').open(sealed));
  });
});
