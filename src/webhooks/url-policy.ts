import dns from 'node:dns';
import { classifyAddress, isIpLiteral } from '../net/index.js';

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

/**
 * Said whenever a target is refused for being on this machine or a private network: a
 * developer's receiver on localhost is the common case, and only the operator can allow it.
 */
export const PRIVATE_TARGET_HINT =
  ' Receivers on loopback or private networks (e.g. http://localhost:3000 while developing) are refused ' +
  'unless the operator starts Quire with QUIRE_ALLOW_PRIVATE_WEBHOOKS=true (development and tests only); ' +
  'otherwise use a public https URL, e.g. a tunnel to your machine.';

function refuse(reason: UrlRefusal, privateTarget = false): UrlVerdict {
  return { ok: false, reason, message: MESSAGES[reason] + (privateTarget ? PRIVATE_TARGET_HINT : '') };
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

interface ShapeInspection {
  verdict: UrlVerdict;
  /**
   * A rule QUIRE_ALLOW_PRIVATE_WEBHOOKS waived for a host name: the waiver holds only if every address the
   * name resolves to is private, so the DNS step decides (null: nothing left to decide).
   */
  pendingWaiver: 'https_required' | 'port' | null;
}

/**
 * allowPrivate (a development setting for receivers on this machine or network) relaxes the https and port
 * rules for loopback and private targets only: a public target keeps every rule.
 */
function inspectShape(raw: string, allowPrivate: boolean): ShapeInspection {
  const refused = (reason: UrlRefusal, privateTarget = false): ShapeInspection => ({
    verdict: refuse(reason, privateTarget),
    pendingWaiver: null,
  });
  if (raw.length > MAX_URL_LENGTH) return refused('too_long');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused('invalid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refused('scheme');
  if (!url.hostname) return refused('invalid');
  const host = bareHost(url.hostname);
  const privateHost = isPrivateHost(host);
  // A public IP literal is never waived; a name may be, subject to its DNS answer.
  const mayWaive = allowPrivate && (privateHost || !isIpLiteral(host));
  let waived: 'https_required' | 'port' | null = null;
  if (url.protocol === 'http:') {
    if (!mayWaive) return refused('https_required', privateHost);
    waived = 'https_required';
  }
  if (url.username || url.password) return refused('credentials');
  if (!ALLOWED_PORTS.has(effectivePort(url))) {
    if (!mayWaive) return refused('port', privateHost);
    waived ??= 'port';
  }
  if (!allowPrivate && privateHost) return refused('private_address', true);
  return { verdict: { ok: true, url: url.href }, pendingWaiver: privateHost ? null : waived };
}

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function isPrivateHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIpLiteral(host) && !classifyAddress(host).ok;
}

/** The full check for create and update: shape, then every address the host resolves to. */
export async function checkWebhookUrl(
  raw: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<UrlVerdict> {
  const shape = inspectShape(raw, options.allowPrivate);
  if (!shape.verdict.ok) return shape.verdict;
  const host = bareHost(new URL(shape.verdict.url).hostname);
  if (isIpLiteral(host)) return shape.verdict;
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    return refuse('dns');
  }
  if (addresses.length === 0) return refuse('dns');
  const anyPublic = addresses.some((a) => classifyAddress(a).ok);
  const anyRefused = addresses.some((a) => !classifyAddress(a).ok);
  // A name with any refused address is refused: the connection could land on that one.
  if (!options.allowPrivate && anyRefused) return refuse('private_address', true);
  // The waiver was for a private target; any public address makes the name a public target.
  if (shape.pendingWaiver && anyPublic) return refuse(shape.pendingWaiver);
  return shape.verdict;
}

/**
 * The check at every delivery (spec: Delivery 8). The guarded agent checks the address actually connected
 * to; DNS is asked here only when a waiver depends on it.
 */
export async function checkUrlAtDelivery(
  raw: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<UrlVerdict> {
  const shape = inspectShape(raw, options.allowPrivate);
  if (!shape.verdict.ok || !shape.pendingWaiver) return shape.verdict;
  return checkWebhookUrl(raw, options);
}
