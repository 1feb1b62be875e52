import dns from 'node:dns';
import { classifyAddress, isIpLiteral } from '../net/address-policy.js';

/**
 * Which webhook target URLs are accepted (spec: Events, Delivery 8; Errors, "refused webhook URL" with
 * `details.field` and `details.reason`). Checked on create/update with DNS, and again on every delivery,
 * where the guarded agent checks the address actually connected to.
 */
export type UrlRefusal =
  | 'too_long'
  | 'invalid'
  | 'scheme'
  | 'https_required'
  | 'credentials'
  | 'port'
  | 'private_address'
  | 'dns';

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: UrlRefusal; message: string };

/** Resolves a host name to every address it has (injectable so tests need no real DNS). */
export type Resolver = (host: string) => Promise<string[]>;

export const MAX_URL_LENGTH = 2048;
const ALLOWED_PORTS = new Set([443, 80, 8443]);
const DNS_TIMEOUT_MS = 5_000;

const MESSAGES: Record<UrlRefusal, string> = {
  too_long: `The URL is longer than ${MAX_URL_LENGTH} characters.`,
  invalid: 'The URL is not a valid absolute URL.',
  scheme: 'The URL must use https.',
  https_required: 'The URL must use https, not http.',
  credentials: 'The URL must not contain a user name or password.',
  port: 'The URL port must be 443, 80 or 8443.',
  private_address: 'The URL points to a private, loopback, link-local or otherwise non-public address.',
  dns: 'The URL host name does not resolve.',
};

function refuse(reason: UrlRefusal): UrlVerdict {
  return { ok: false, reason, message: MESSAGES[reason] };
}

export const systemResolver: Resolver = async (host) => {
  const lookup = dns.promises.lookup(host, { all: true, verbatim: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS timeout')), DNS_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([lookup, timeout])).map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Everything decidable without DNS: length, syntax, scheme, credentials, port, IP literals in any spelling
 * (WHATWG URL parsing turns decimal, octal and hex IPv4 forms into dotted quads first).
 */
export function checkUrlShape(raw: string, allowPrivate: boolean): UrlVerdict {
  if (raw.length > MAX_URL_LENGTH) return refuse('too_long');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('invalid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('scheme');
  if (!url.hostname) return refuse('invalid');
  if (url.protocol === 'http:' && !allowPrivate) return refuse('https_required');
  if (url.username || url.password) return refuse('credentials');
  if (!allowPrivate && !ALLOWED_PORTS.has(effectivePort(url))) return refuse('port');
  if (!allowPrivate && isPrivateHost(url.hostname)) return refuse('private_address');
  return { ok: true, url: url.href };
}

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIpLiteral(host) && !classifyAddress(host).ok;
}

/** The full check for create and update: shape, then every address the host resolves to. */
export async function checkWebhookUrl(
  raw: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<UrlVerdict> {
  const shape = checkUrlShape(raw, options.allowPrivate);
  if (!shape.ok) return shape;
  const host = new URL(shape.url).hostname.replace(/^\[|\]$/g, '');
  if (isIpLiteral(host)) return shape;
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    return refuse('dns');
  }
  if (addresses.length === 0) return refuse('dns');
  // A name with any refused address is refused: the connection could land on that one.
  if (!options.allowPrivate && addresses.some((a) => !classifyAddress(a).ok))
    return refuse('private_address');
  return shape;
}
