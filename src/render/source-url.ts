import { AppError } from '../shared/errors.js';
import { composeDocument } from './html-document.js';
import type { PoolSlot } from './pool-slot.js';
import type { FetchOutcome } from './resource-fetcher.js';

/** Why a source URL was refused, as webhook URLs report it (`details.reason`). */
export type SourceRefusal = 'scheme' | 'private_address' | 'dns' | 'unreachable' | 'status' | 'not_html';

const MESSAGES: Record<SourceRefusal, string> = {
  scheme: 'The source_url must use http or https.',
  private_address:
    'The source_url points to a private, loopback, link-local or otherwise non-public address (the operator may allow named hosts with QUIRE_URL_ALLOW_HOSTS).',
  dns: 'The source_url host name does not resolve.',
  unreachable: 'The source_url could not be loaded.',
  status: 'The source_url did not answer with a page.',
  not_html: 'The source_url did not answer with HTML.',
};

export function sourceRefused(reason: SourceRefusal, detail?: string): AppError {
  const message = detail ? `${MESSAGES[reason]} (${detail})` : MESSAGES[reason];
  return new AppError('invalid_request', message, { field: 'source_url', reason });
}

/** The shape check before anything is fetched (POST /pdf request rules). */
export function checkSourceUrlShape(raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('invalid_request', '"source_url" must be an absolute http or https URL.', {
      field: 'source_url',
      reason: 'invalid',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw sourceRefused('scheme');
  if (url.username || url.password)
    throw new AppError('invalid_request', '"source_url" must not contain a user name or password.', {
      field: 'source_url',
      reason: 'credentials',
    });
}

/** Maps the fetcher's refusal text (resource-fetcher.ts, address-policy.ts) to a `details.reason`. */
function refusalOf(reason: string): SourceRefusal {
  if (/scheme .* not allowed/.test(reason)) return 'scheme';
  if (/ address$|own address/.test(reason)) return 'private_address';
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME|no address/.test(reason)) return 'dns';
  return 'unreachable';
}

/** Spec "Limits": the HTML of a document (as renderer.ts MAX_HTML_BYTES, not imported: that would be a cycle). */
const MAX_SOURCE_BYTES = 5 * 1024 * 1024;

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain)\b/i;

function decode(body: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The page at a source URL as a document to load: fetched by the resource guard (same address rules,
 * budget and cancellation as resources), with a `<base>` so its relative links resolve against the URL
 * it was finally served from (after redirects).
 */
export async function fetchSourceDocument(slot: PoolSlot, sourceUrl: string): Promise<string> {
  const outcome: FetchOutcome = await slot.guard.fetchDocument(sourceUrl);
  if (!outcome.ok) throw sourceRefused(refusalOf(outcome.reason), outcome.reason);
  if (outcome.status >= 400) throw sourceRefused('status', `HTTP ${outcome.status}`);
  const contentType = outcome.headers['content-type'];
  if (contentType && !HTML_TYPES.test(contentType)) throw sourceRefused('not_html', contentType);
  if (outcome.body.length > MAX_SOURCE_BYTES)
    throw new AppError('document_too_large', 'The source_url page is larger than 5 MB of HTML.');
  const html = decode(outcome.body, contentType);
  return composeDocument(html, null, `<base href="${escapeAttribute(outcome.url.href)}">`);
}
