import ipaddr from 'ipaddr.js';

/**
 * The key the per-IP budget counts under (spec: IPv6 addresses in the same /64 count as one).
 * IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function ipBudgetKey(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return `raw:${address}`;
  }
  if (parsed.kind() === 'ipv4') return `v4:${parsed.toString()}`;
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `v6:${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
