import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeDataUrl, isDataUrl } from './data-url.js';

const text = (url: string) => decodeDataUrl(url)?.toString('latin1') ?? null;

describe('data: URLs as resvg reads them', () => {
  it('decodes base64 and percent-encoded bodies', () => {
    assert.equal(text('data:image/png;base64,aGVsbG8='), 'hello');
    assert.equal(text('data:image/png;base64,aGVsbG8'), 'hello', 'padding may be left out');
    assert.equal(text('DATA:image/png;BASE64,aGVs bG8=\n'), 'hello', 'whitespace is skipped');
    assert.equal(text('data:image/png; base64 ,aGVsbG8='), 'hello');
    assert.equal(text('data:image/png;base64,aGVs%62G8='), 'hello', 'percent-decoded before base64');
    assert.equal(text('data:image/png,%89PNG%0D%0A'), '\x89PNG\r\n');
    assert.equal(text('data:,a%zzb'), 'a%zzb', 'a % without two hex digits stays');
    assert.equal(text('data:image/png;base64,aGVsbG8=#fragment'), 'hello', 'the fragment is not data');
  });

  it('reads a scheme written with tabs, newlines and surrounding controls as resvg does', () => {
    assert.equal(text(' \u0001d\na\tt\ra:image/png;base64,aGVsbG8= \u0000'), 'hello');
    assert.ok(isDataUrl('\nData:x'));
    for (const url of ['', 'dat', 'da ta:', 'http://x/data:', '#data:', 'file:///data:'])
      assert.ok(!isDataUrl(url), url);
  });

  it('answers null where resvg decodes nothing: no comma before the fragment, or invalid base64', () => {
    for (const url of [
      'data:image/png;base64',
      'data:image/png#,aGVsbG8=',
      'data:image/png;base64,aGVsbG8==',
      'data:image/png;base64,a',
      'data:image/png;base64,aGVs*bG8=',
      'data:image/png;base64,aGVsbG8=aGVs',
      'https://example.com/a.png',
    ])
      assert.equal(decodeDataUrl(url), null, url);
  });
});
