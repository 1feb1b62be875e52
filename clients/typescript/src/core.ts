import createClient, { type Client } from 'openapi-fetch';
import { errorFrom } from './errors.js';
import { type RetryOptions, retryingFetch } from './retry.js';
import type { paths } from './schema.js';

export interface QuireClientOptions {
  /** The service's base address, e.g. `https://pdf.example.com` (the client adds `/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Retry rules (spec: Errors); `false` sends every request once. */
  retry?: RetryOptions | false;
  /** Custom fetch (default: globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/** What openapi-fetch answers: the parsed body or the error body, and the response. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful answer; every error answer (and a 3xx) is thrown as QuireError. */
export async function unwrap<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (error !== undefined || !response.ok) throw errorFrom(response, error);
  return data as T;
}

/** What every resource shares: the typed openapi-fetch client (key, base URL, retries) and signed-link downloads. */
export class Core {
  readonly api: Client<paths>;
  readonly #fetch: (request: Request) => Promise<Response>;

  constructor(options: QuireClientOptions) {
    const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.#fetch = base;
    this.api = createClient<paths>({
      baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/v1`,
      headers: { authorization: `Bearer ${options.apiKey}` },
      fetch: options.retry === false ? base : retryingFetch(base, options.retry ?? {}),
    });
  }

  /** Fetches a signed link (document `url`, batch `zip.url`, thumbnails, brand asset files): no key is sent. */
  async download(url: string): Promise<Uint8Array> {
    const response = await this.#fetch(new Request(url));
    if (!response.ok) throw errorFrom(response, await response.json().catch(() => null));
    return new Uint8Array(await response.arrayBuffer());
  }
}

/** Waits `ms` milliseconds (between polls). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
