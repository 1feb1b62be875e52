import ipaddr from 'ipaddr.js';

/**
 * Which network addresses the service may connect to on a user's behalf (page resources, webhooks).
 * Only public unicast addresses pass; everything that could reach this host, its network or a cloud
 * metadata service is refused.
 */
export type AddressVerdict = { ok: true } | { ok: false; reason: string };

// ipaddr.js range names that are not the public internet.
const REFUSED_RANGES = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'carrierGradeNat',
  'private',
  'reserved',
  'uniqueLocal',
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
  'benchmarking',
  'amt',
  'as112',
  'as112v6',
  'deprecated',
  'orchid2',
  'droneRemoteIdProtocolEntityTags',
]);

/** Classifies one IP address (v4 or v6, any spelling ipaddr.js accepts). IPv4-mapped IPv6 is judged as IPv4. */
export function classifyAddress(address: string): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, ''));
  } catch {
    return { ok: false, reason: 'invalid address' };
  }
  const range = parsed.range();
  if (REFUSED_RANGES.has(range)) return { ok: false, reason: `${range} address` };
  if (parsed.kind() === 'ipv4' && (parsed as ipaddr.IPv4).octets[0] === 0) {
    return { ok: false, reason: 'unspecified address' };
  }
  return { ok: true };
}

/** True when `host` is an IP literal (any spelling, including decimal/octal/hex IPv4 forms that WHATWG URL normalises). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
}
