import type { LookupFunction } from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';
import { Agent, fetch } from 'undici';
import { guardedLookup, RefusedAddressError, refusedHostReason } from '../net/guarded-agent.js';

/** What Quire's own fetcher made of one request a document sent. */
export type FetchOutcome =
  | { ok: true; status: number; headers: Record<string, string>; body: Buffer }
  | { ok: false; reason: string };

export interface FetcherOptions {
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
}

const MAX_REDIRECTS = 5;
// Headers a document's request may pass on; never cookies or credentials of any kind.
const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-language', 'user-agent', 'range'];
// Dropped from answers: cookies must not reach the browser; the body is already decoded and re-framed.
const DROPPED_RESPONSE_HEADERS = new Set([
  'set-cookie',
  'set-cookie2',
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

function normalise(address: string): string {
  try {
    return ipaddr.process(address.replace(/^\[|\]$/g, '')).toString();
  } catch {
    return address;
  }
}

/** Every address of this host's interfaces: a public one would otherwise lead back to the service's port. */
function ownAddresses(): Set<string> {
  const all = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
  return new Set(all.map((i) => normalise(i.address)));
}

/** The guarded lookup of src/net plus a refusal of this host's own (possibly public) addresses. */
function lookupRefusingOwn(inner: LookupFunction, own: Set<string>): LookupFunction {
  return (hostname, options, callback) =>
    inner(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
      if (list.some((a) => own.has(normalise(a)))) {
        return callback(new RefusedAddressError(hostname, "this host's own address"), '', 0);
      }
      callback(null, address, family);
    });
}

/**
 * Fetches the http(s) resources documents ask for (issue 3, item 4): non-http(s) schemes, private,
 * loopback, link-local and metadata addresses (judged on the address actually connected to), this
 * host's own addresses, answers over `maxBytes` and answers slower than `timeoutMs` are refused.
 */
export class ResourceFetcher {
  private readonly agent: Agent;
  private readonly own: Set<string>;

  constructor(private readonly options: FetcherOptions) {
    this.own = options.allowPrivate ? new Set() : ownAddresses();
    const lookup = lookupRefusingOwn(guardedLookup(options.allowPrivate), this.own);
    const t = options.timeoutMs;
    this.agent = new Agent({ connect: { lookup, timeout: t }, headersTimeout: t, bodyTimeout: t });
  }

  /** Null when the URL may be requested, else why not (checked again on every redirect). */
  refusal(url: URL): string | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `scheme ${url.protocol} not allowed`;
    const host = refusedHostReason(url, this.options.allowPrivate);
    if (host) return host;
    if (this.own.has(normalise(url.hostname))) return "this host's own address";
    return null;
  }

  async fetch(
    rawUrl: string,
    method: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<FetchOutcome> {
    if (method !== 'GET' && method !== 'HEAD') return { ok: false, reason: `method ${method} not allowed` };
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    try {
      return await this.follow(
        new URL(rawUrl),
        method,
        pickHeaders(headers),
        AbortSignal.any([signal, deadline]),
      );
    } catch (err) {
      if (deadline.aborted)
        return { ok: false, reason: `no complete answer within ${this.options.timeoutMs} ms` };
      if (signal.aborted) return { ok: false, reason: 'render ended' };
      return { ok: false, reason: failureReason(err) };
    }
  }

  private async follow(
    start: URL,
    method: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<FetchOutcome> {
    let url = start;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refused = this.refusal(url);
      if (refused) return { ok: false, reason: hop === 0 ? refused : `redirect to ${url.href}: ${refused}` };
      const res = await fetch(url, { method, headers, signal, redirect: 'manual', dispatcher: this.agent });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      return this.readCapped(res);
    }
    return { ok: false, reason: `more than ${MAX_REDIRECTS} redirects` };
  }

  private async readCapped(res: Awaited<ReturnType<typeof fetch>>): Promise<FetchOutcome> {
    const max = this.options.maxBytes;
    const tooLarge: FetchOutcome = { ok: false, reason: `larger than ${max} bytes` };
    if (Number(res.headers.get('content-length') ?? 0) > max) {
      await res.body?.cancel();
      return tooLarge;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > max) return tooLarge; // leaving the loop cancels the stream
      chunks.push(Buffer.from(chunk));
    }
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!DROPPED_RESPONSE_HEADERS.has(name)) headers[name] = value;
    });
    return { ok: true, status: res.status, headers, body: Buffer.concat(chunks) };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function pickHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = headers[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function failureReason(err: unknown): string {
  let code: string | undefined;
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof RefusedAddressError) return e.reason;
    code ??= (e as { code?: string }).code;
  }
  return `fetch failed${code ? ` (${code})` : ''}`;
}
