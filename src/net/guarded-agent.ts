import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { classifyAddress, isIpLiteral } from './address-policy.js';

export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`${host}: ${reason}`);
  }
}

/**
 * A DNS lookup that refuses non-public addresses (with `allowPrivate`, still everything but loopback and
 * private networks). Because the socket connects to exactly the address this returns, there is no window
 * between the check and the connection (DNS rebinding).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const first = list[0];
      if (!first) return callback(new Error(`${hostname}: no address`), '', 0);
      for (const a of list) {
        const verdict = classifyAddress(a.address, { allowPrivate });
        if (!verdict.ok) return callback(new RefusedAddressError(hostname, verdict.reason), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Checks a URL's host before a request: IP literals never reach `lookup`, so they are judged here.
 * Returns null when allowed, else the reason.
 */
export function refusedHostReason(url: URL, allowPrivate: boolean): string | null {
  const host = url.hostname;
  if (isIpLiteral(host)) {
    const verdict = classifyAddress(host, { allowPrivate });
    return verdict.ok ? null : verdict.reason;
  }
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) return 'loopback address';
  return null;
}

/** An undici Agent whose every connection goes through the guarded lookup. */
export function createGuardedAgent(options: {
  allowPrivate: boolean;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}): Agent {
  return new Agent({
    connect: { lookup: guardedLookup(options.allowPrivate), timeout: options.connectTimeoutMs },
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
    maxRedirections: 0,
  } as ConstructorParameters<typeof Agent>[0]);
}
