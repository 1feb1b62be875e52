import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { shareDateTimeFormats } from './intl-cache.js';

/** A realm's own Intl, so the test never changes this process's. */
function freshIntl(): typeof Intl {
  const intl = runInNewContext('Intl') as typeof Intl;
  shareDateTimeFormats(intl);
  return intl;
}

describe('shared Intl.DateTimeFormat of the Liquid workers', () => {
  const day = new Date(Date.UTC(2026, 10, 2, 10, 30));

  it('hands out one formatter per locales and options, called with or without new', () => {
    const intl = freshIntl();
    const a = new intl.DateTimeFormat('en-US', { month: 'short' });
    const b = intl.DateTimeFormat('en-US', { month: 'short' });
    assert.equal(a, b);
    assert.notEqual(a, new intl.DateTimeFormat('de-DE', { month: 'short' }));
    assert.notEqual(a, new intl.DateTimeFormat('en-US', { month: 'long' }));
  });

  it('formats as the built-in does and keeps instanceof and supportedLocalesOf', () => {
    const intl = freshIntl();
    const shared = new intl.DateTimeFormat('de-DE', { month: 'long', timeZone: 'UTC' });
    assert.equal(shared.format(day), 'November');
    assert.ok(shared instanceof intl.DateTimeFormat);
    // Arrays and errors of the other realm: compared by content and name.
    assert.deepEqual([...intl.DateTimeFormat.supportedLocalesOf(['de-DE'])], ['de-DE']);
  });

  it('still refuses what the built-in refuses, and caches nothing for it', () => {
    const intl = freshIntl();
    for (let i = 0; i < 2; i++)
      assert.throws(
        () => new intl.DateTimeFormat('en-US', { timeZone: 'Mars/Olympus' }),
        (err: Error) => err.name === 'RangeError',
      );
  });

  it('keeps at most 256 formatters: the least recently used one is made again', () => {
    const intl = freshIntl();
    const first = new intl.DateTimeFormat('en-US', { minute: '2-digit' });
    for (let i = 0; i < 256; i++) new intl.DateTimeFormat(`en-x-t${i}`, { minute: '2-digit' });
    assert.notEqual(new intl.DateTimeFormat('en-US', { minute: '2-digit' }), first);
  });
});
