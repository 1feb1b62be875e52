import ipaddr from 'ipaddr.js';

/**
 * Which network addresses the service may connect to on a user's behalf (page resources, webhooks).
 * An allow-list: only public unicast addresses pass. A deny-list of range names misses every range
 * it does not name (and ipaddr.js adds ranges over time), so anything not known to be public is refused.
 */
export type AddressVerdict = { ok: true } | { ok: false; reason: string };

export interface AddressPolicy {
  /**
   * Development switch (QUIRE_ALLOW_PRIVATE_WEBHOOKS / _RESOURCES): also allow this host and the local
   * network (loopback, RFC 1918, IPv6 unique-local). Link-local stays refused: it holds cloud metadata.
   */
  allowPrivate?: boolean;
}

/** ipaddr.js range names that the development switch opens. */
const PRIVATE_RANGES: ReadonlySet<string> = new Set(['loopback', 'private', 'uniqueLocal']);

/** IPv6 global unicast (RFC 4291 2.4): ipaddr.js calls every unnamed address "unicast", e.g. `::/96` or `4000::/3`. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** Parses any spelling ipaddr.js accepts, brackets allowed; IPv4-mapped IPv6 becomes the IPv4 address. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(address.replace(/^\[|\]$/g, ''));
  } catch {
    return null;
  }
}

/** The ipaddr.js range name, with IPv6 "unicast" outside 2000::/3 (IPv4-compatible `::a.b.c.d` among them) set apart. */
function rangeOf(parsed: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = parsed.range();
  if (range !== 'unicast' || parsed.kind() === 'ipv4') return range;
  return (parsed as ipaddr.IPv6).match(IPV6_GLOBAL_UNICAST) ? range : 'non-global IPv6';
}

/** Classifies one IP address (v4 or v6). IPv4-mapped IPv6 is judged as IPv4. */
export function classifyAddress(address: string, policy: AddressPolicy = {}): AddressVerdict {
  const parsed = parseAddress(address);
  if (!parsed) return { ok: false, reason: 'invalid address' };
  const range = rangeOf(parsed);
  if (range === 'unicast') return { ok: true };
  if (policy.allowPrivate && PRIVATE_RANGES.has(range)) return { ok: true };
  return { ok: false, reason: `${range} address` };
}

/** True when `host` is an IP literal (any spelling, including decimal/octal/hex IPv4 forms that WHATWG URL normalises). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
}
