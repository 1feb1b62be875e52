import type { LookupFunction } from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';
import { Agent, fetch } from 'undici';
import { guardedLookup, RefusedAddressError, refusedHostReason } from '../net/index.js';
import { type BudgetLimits, ResourceBudget } from './resource-budget.js';

/** What Quire's own fetcher made of one request a document sent. */
export type FetchOutcome =
  | { ok: true; status: number; headers: Record<string, string>; body: Buffer; url: URL }
  | { ok: false; reason: string };

export interface FetcherOptions {
  allowPrivate: boolean;
  /** Size limit of one resource. */
  maxBytes: number;
  timeoutMs: number;
  /** Number and total size of the resources of one document. */
  perDocument: BudgetLimits;
  /**
   * QUIRE_URL_ALLOW_HOSTS: `host` or `host:port` entries reached whatever their addresses (intranet pages
   * named by the operator). Every other host keeps every rule.
   */
  allowHosts?: readonly string[];
}

type Response = Awaited<ReturnType<typeof fetch>>;

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
 * Fetches the http(s) resources documents ask for: non-http(s) schemes, private,
 * loopback, link-local and metadata addresses (judged on the address actually connected to), this
 * host's own addresses, answers over `maxBytes` and answers slower than `timeoutMs` are refused, and
 * so are resources past the document's budget (resource-budget.ts).
 */
export class ResourceFetcher {
  private readonly agent: Agent;
  /** For the operator's allowed hosts only: the system lookup, no address rules. */
  private readonly allowedAgent: Agent;
  private readonly own: Set<string>;
  private readonly allowHosts: ReadonlySet<string>;

  constructor(private readonly options: FetcherOptions) {
    this.own = options.allowPrivate ? new Set() : ownAddresses();
    this.allowHosts = new Set(options.allowHosts ?? []);
    const lookup = lookupRefusingOwn(guardedLookup(options.allowPrivate), this.own);
    const t = options.timeoutMs;
    this.agent = new Agent({ connect: { lookup, timeout: t }, headersTimeout: t, bodyTimeout: t });
    this.allowedAgent = new Agent({ connect: { timeout: t }, headersTimeout: t, bodyTimeout: t });
  }

  /** True when QUIRE_URL_ALLOW_HOSTS names the URL's host (any port) or its host:port. */
  isAllowedHost(url: URL): boolean {
    if (this.allowHosts.size === 0) return false;
    const host = url.hostname.toLowerCase();
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return this.allowHosts.has(host) || this.allowHosts.has(`${host}:${port}`);
  }

  /** A fresh budget for one document's resources. */
  newBudget(): ResourceBudget {
    return new ResourceBudget(this.options.perDocument);
  }

  /** Null when the URL may be requested, else why not (checked again on every redirect). */
  refusal(url: URL): string | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `scheme ${url.protocol} not allowed`;
    if (this.isAllowedHost(url)) return null;
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
    budget: ResourceBudget,
  ): Promise<FetchOutcome> {
    if (method !== 'GET' && method !== 'HEAD') return { ok: false, reason: `method ${method} not allowed` };
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    try {
      return await this.follow(
        new URL(rawUrl),
        { method, headers: pickHeaders(headers), signal: AbortSignal.any([signal, deadline]) },
        budget,
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
    request: { method: string; headers: Record<string, string>; signal: AbortSignal },
    budget: ResourceBudget,
  ): Promise<FetchOutcome> {
    let url = start;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refused = this.refusal(url);
      if (refused) return { ok: false, reason: hop === 0 ? refused : `redirect to ${url.href}: ${refused}` };
      // Counted once the first URL is allowed; its redirects are the same resource.
      const overCount = hop === 0 ? budget.admit() : null;
      if (overCount) return { ok: false, reason: overCount };
      const dispatcher = this.isAllowedHost(url) ? this.allowedAgent : this.agent;
      const res = await fetch(url, { ...request, redirect: 'manual', dispatcher });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      return this.readCapped(res, budget, url);
    }
    return { ok: false, reason: `more than ${MAX_REDIRECTS} redirects` };
  }

  /**
   * Reads the body under the per-resource cap and the document's budget. playwright's route.fulfill
   * takes a whole body, so it cannot be streamed into Chromium; a body of announced length is streamed
   * into one buffer of that size (reserved in the budget up front, no second copy), others chunk by
   * chunk as they arrive. Either way the document's resources never hold more than its budget.
   */
  private async readCapped(res: Response, budget: ResourceBudget, url: URL): Promise<FetchOutcome> {
    const max = this.options.maxBytes;
    const tooLarge: FetchOutcome = { ok: false, reason: `larger than ${max} bytes` };
    const overTotal: FetchOutcome = { ok: false, reason: budget.overTotal() };
    const announced = announcedLength(res);
    if (announced !== null && announced > max) {
      await res.body?.cancel();
      return tooLarge;
    }
    // Decoded (content-encoding) bodies are longer than announced: those are counted as they arrive.
    const exact = res.headers.has('content-encoding') ? null : announced;
    if (exact !== null && !budget.take(exact)) {
      await res.body?.cancel();
      return overTotal;
    }
    const target = exact === null ? null : Buffer.allocUnsafe(exact);
    const chunks: Buffer[] = [];
    let size = 0;
    // Leaving the loop early cancels the stream.
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > max || (target && size > target.length)) return tooLarge;
      if (target) target.set(chunk, size - chunk.byteLength);
      else if (!budget.take(chunk.byteLength)) return overTotal;
      else chunks.push(Buffer.from(chunk));
    }
    const body = target ? target.subarray(0, size) : Buffer.concat(chunks, size);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!DROPPED_RESPONSE_HEADERS.has(name)) headers[name] = value;
    });
    return { ok: true, status: res.status, headers, body, url };
  }

  async close(): Promise<void> {
    await this.agent.close();
    await this.allowedAgent.close();
  }
}

/** The Content-Length the server announced, or null when absent or not a number. */
function announcedLength(res: Response): number | null {
  const raw = res.headers.get('content-length');
  const n = raw === null ? Number.NaN : Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
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
