import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../config/config.js';
import { isAppError } from '../shared/errors.js';
import { checkSourceUrlShape } from './source-url.js';

function refusal(raw: string): unknown {
  try {
    checkSourceUrlShape(raw);
    return null;
  } catch (err) {
    assert.ok(isAppError(err));
    assert.equal(err.code, 'invalid_request');
    return err.details;
  }
}

describe('source_url shape', () => {
  it('accepts http and https', () => {
    assert.equal(refusal('https://example.com/report?q=1'), null);
    assert.equal(refusal('http://intranet:8080/'), null);
  });
  it('refuses other schemes, relative URLs and credentials with details', () => {
    for (const raw of ['file:///etc/passwd', 'ftp://example.com/', 'javascript:alert(1)', 'data:text/html,x'])
      assert.deepEqual(refusal(raw), { field: 'source_url', reason: 'scheme' }, raw);
    assert.deepEqual(refusal('/relative'), { field: 'source_url', reason: 'invalid' });
    assert.deepEqual(refusal('https://user:pw@example.com/'), { field: 'source_url', reason: 'credentials' });
  });
});

describe('QUIRE_URL_ALLOW_HOSTS', () => {
  it('takes host and host:port entries, lower-cased, IPv6 in brackets', () => {
    const config = loadConfig({ QUIRE_URL_ALLOW_HOSTS: ' Intranet.local , reports:8443,[::1]:3000,,' });
    assert.deepEqual(config.urlAllowHosts, ['intranet.local', 'reports:8443', '[::1]:3000']);
    assert.deepEqual(loadConfig({}).urlAllowHosts, []);
  });
  it('refuses URLs, paths and credentials', () => {
    for (const raw of ['http://intranet', 'intranet/path', 'user@intranet', 'host:99999'])
      assert.throws(() => loadConfig({ QUIRE_URL_ALLOW_HOSTS: raw }), /host or host:port/, raw);
  });
});
