import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { AppError } from '../shared/errors.js';

/**
 * HMAC-signed links for downloads that need no API key (spec: Authentication 6). The signature covers the
 * resource kind, id, optional version and expiry, so a link cannot be moved to another file or extended.
 */
type LinkVerdict = { ok: true } | { ok: false; code: 'forbidden' | 'file_expired' };

export class LinkSigner {
  private readonly key: Buffer;

  constructor(serverSecret: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'quire signed links v1', 32));
  }

  sign(resource: string, expUnix: number): string {
    return createHmac('sha256', this.key).update(`${resource}\n${expUnix}`).digest('hex');
  }

  /**
   * What every signed route answers a link with (`?exp=…&sig=…`): nothing for a good one, else it throws
   * `forbidden` for a missing or wrong signature, then `file_expired` past its expiry.
   */
  check(resource: string, link: { exp?: string; sig?: string }, now: Date): void {
    const verdict = this.verify(resource, link.exp, link.sig, now.getTime());
    if (!verdict.ok) throw signedLinkError(verdict.code);
  }

  /** Signature first (403 for a wrong one), then expiry (410). */
  private verify(
    resource: string,
    exp: string | undefined,
    sig: string | undefined,
    nowMs: number,
  ): LinkVerdict {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig))
      return { ok: false, code: 'forbidden' };
    const expected = Buffer.from(this.sign(resource, Number(exp)), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return { ok: false, code: 'forbidden' };
    if (Number(exp) * 1000 <= nowMs) return { ok: false, code: 'file_expired' };
    return { ok: true };
  }

  /**
   * A link without expiry (brand assets, spec: Authentication 6, `sig` alone): the signature covers the
   * resource with a marker no expiring link can produce, so the two kinds never verify as each other.
   */
  signPermanent(resource: string): string {
    return createHmac('sha256', this.key).update(`${resource}\npermanent`).digest('hex');
  }

  verifyPermanent(resource: string, sig: string | undefined): boolean {
    if (!sig || !/^[0-9a-f]{64}$/.test(sig)) return false;
    return timingSafeEqual(Buffer.from(this.signPermanent(resource), 'hex'), Buffer.from(sig, 'hex'));
  }

  /** `?exp=…&sig=…` for a resource valid until `expires`. */
  query(resource: string, expires: Date, extra = ''): string {
    const exp = Math.floor(expires.getTime() / 1000);
    return `?${extra}exp=${exp}&sig=${this.sign(resource, exp)}`;
  }
}

/** The error a refused signed link answers with (every capability's signed routes use the same two). */
function signedLinkError(code: 'forbidden' | 'file_expired'): AppError {
  return code === 'forbidden'
    ? new AppError('forbidden', 'The link signature is invalid.')
    : new AppError('file_expired', 'This link has expired.');
}
