export type { PdfFile } from './binary.js';
export { newIdempotencyKey, Quire, QuireClient, type RequestOptions } from './client.js';
export type { QuireClientOptions } from './core.js';
export { QuireError } from './errors.js';
export type { Page, PagedList } from './pagination.js';
export type { PollOptions } from './resources/documents.js';
export type { SpreadsheetPreview } from './resources/spreadsheets.js';
export { type RetryOptions, retryDelayMs, retryingFetch } from './retry.js';
export type { components, operations, paths } from './schema.js';
export type * from './types.js';
export {
  type ConstructEventOptions,
  constructEvent,
  type PdfEventData,
  SIGNATURE_HEADER,
  type VerifyOptions,
  verifyWebhookSignature,
  type WebhookEvent,
  type WebhookVerdict,
} from './webhooks.js';
