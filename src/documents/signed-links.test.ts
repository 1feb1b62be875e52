import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { thrownAppError } from '../../test/helpers/app-error.js';
import { LinkSigner } from './signed-links.js';

/** The one check every signed route (files, thumbnails, batch ZIPs, template thumbnails) answers links with. */
describe('LinkSigner.check', () => {
  const signer = new LinkSigner(Buffer.alloc(32, 7));
  const now = new Date('2026-11-28T12:00:00Z');
  const expires = new Date('2026-11-28T13:00:00Z');
  const linkOf = (resource: string, until = expires) =>
    Object.fromEntries(new URLSearchParams(signer.query(resource, until).slice(1))) as {
      exp: string;
      sig: string;
    };

  it('accepts the link it signed, before its expiry', () => {
    assert.doesNotThrow(() => signer.check('file:a', linkOf('file:a'), now));
  });

  it('refuses a missing, malformed, altered or moved signature with forbidden', () => {
    const good = linkOf('file:a');
    const wrongs = [
      {},
      { exp: good.exp },
      { exp: 'soon', sig: good.sig },
      { exp: good.exp, sig: good.sig.toUpperCase() },
      { exp: good.exp, sig: `${good.sig.slice(0, -1)}${good.sig.endsWith('0') ? '1' : '0'}` },
      { exp: String(Number(good.exp) + 3600), sig: good.sig },
      linkOf('file:b'),
      { exp: good.exp, sig: signer.signPermanent('file:a') },
    ];
    for (const link of wrongs)
      thrownAppError(() => signer.check('file:a', link, now), 'forbidden', JSON.stringify(link));
  });

  it('refuses an expired link with file_expired, but a wrong signature first with forbidden', () => {
    const late = new Date(expires.getTime() + 1000);
    thrownAppError(() => signer.check('file:a', linkOf('file:a'), late), 'file_expired');
    thrownAppError(() => signer.check('file:a', linkOf('file:b'), late), 'forbidden');
  });
});
