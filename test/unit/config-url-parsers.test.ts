import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { optionalSmtpUrl, optionalWsUrl } from '../../src/config/parsers.js';

describe('optional URL settings with a fixed scheme', () => {
  it('take an empty value as unset and a URL of their scheme as it is', () => {
    assert.equal(optionalSmtpUrl('', 'QUIRE_SMTP_URL'), null);
    assert.equal(
      optionalSmtpUrl('smtps://u:p@mail.example:465', 'QUIRE_SMTP_URL'),
      'smtps://u:p@mail.example:465',
    );
    assert.equal(
      optionalWsUrl('ws://127.0.0.1:9222/abc', 'QUIRE_CHROMIUM_WS_ENDPOINT'),
      'ws://127.0.0.1:9222/abc',
    );
  });

  it('refuse another scheme or no URL, naming the setting; an SMTP URL is never shown', () => {
    for (const raw of ['http://u:secret@mail.example', 'not a url']) {
      assert.throws(
        () => optionalSmtpUrl(raw, 'QUIRE_SMTP_URL'),
        (err: Error) =>
          /^QUIRE_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/.test(err.message) &&
          !err.message.includes('secret'),
      );
    }
    assert.throws(
      () => optionalWsUrl('http://127.0.0.1:9222', 'QUIRE_CHROMIUM_WS_ENDPOINT'),
      /QUIRE_CHROMIUM_WS_ENDPOINT must be the ws:\/\/ endpoint .*got "http:\/\/127\.0\.0\.1:9222"/,
    );
  });
});
