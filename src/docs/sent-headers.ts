import { SENT_HEADER } from '../http/schemas.js';

/**
 * The fixed-value headers each operation's handler sets (cache policy, content sniffing, sandbox), for the
 * OpenAPI document. Handlers set them on the reply, where @fastify/swagger cannot see them, so they are
 * listed here by operationId; test/integration/ops/openapi-headers.test.ts compares this list with the
 * headers real responses carry.
 */

type Json = Record<string, unknown>;
type SentHeaderKey = keyof typeof SENT_HEADER;

/** Component name → the schema in src/http/schemas.ts and the header it is sent as. */
const COMPONENTS = {
  CacheControlNoStore: { header: 'cache-control', schema: SENT_HEADER.noStore },
  CacheControlPrivate: { header: 'cache-control', schema: SENT_HEADER.privateCache },
  ContentSecurityPolicySandbox: { header: 'content-security-policy', schema: SENT_HEADER.sandbox },
  XContentTypeOptions: { header: 'x-content-type-options', schema: SENT_HEADER.noSniff },
} as const satisfies Record<string, { header: string; schema: (typeof SENT_HEADER)[SentHeaderKey] }>;
type ComponentName = keyof typeof COMPONENTS;

/** Which responses of an operation carry which components: a list of statuses, or every response. */
interface Sent {
  statuses: readonly string[] | 'every';
  components: readonly ComponentName[];
}

const NO_STORE: readonly ComponentName[] = ['CacheControlNoStore'];
const SIGNED_DOWNLOAD: readonly ComponentName[] = ['CacheControlPrivate', 'XContentTypeOptions'];
/** A preview PDF the dashboard shows inline: sandboxed, never sniffed, never cached. */
const INLINE_PREVIEW: readonly ComponentName[] = [
  'CacheControlNoStore',
  'XContentTypeOptions',
  'ContentSecurityPolicySandbox',
];
const ok = (status: string, components: readonly ComponentName[]): Sent => ({
  statuses: [status],
  components,
});
/** Spec (Webhook endpoints): every response, errors included, is no-store (a route-level onSend sets it). */
const WEBHOOK: Sent = { statuses: 'every', components: NO_STORE };
/** Dashboard session routes: their answers carry the CSRF token, so every one is no-store (src/users). */
const SESSION: Sent = { statuses: 'every', components: NO_STORE };

export const SENT_HEADERS: Readonly<Record<string, Sent>> = {
  createPdf: ok('200', NO_STORE),
  getDocument: ok('200', NO_STORE),
  listDocuments: ok('200', NO_STORE),
  downloadFile: ok('200', [...SIGNED_DOWNLOAD, 'ContentSecurityPolicySandbox']),
  getDocumentThumbnail: ok('200', SIGNED_DOWNLOAD),
  getTemplateThumbnail: ok('200', SIGNED_DOWNLOAD),
  downloadBatchZip: ok('200', SIGNED_DOWNLOAD),
  createTemplate: ok('201', NO_STORE),
  listTemplates: ok('200', NO_STORE),
  getTemplate: ok('200', NO_STORE),
  updateTemplate: ok('200', NO_STORE),
  pinTemplateVersion: ok('200', NO_STORE),
  listTemplateVersions: ok('200', NO_STORE),
  listBrandAssets: ok('200', NO_STORE),
  uploadBrandAsset: ok('201', NO_STORE),
  previewTemplate: ok('200', INLINE_PREVIEW),
  previewTemplateDraft: ok('200', INLINE_PREVIEW),
  previewTemplateDraftPages: ok('200', NO_STORE),
  createBatch: ok('202', NO_STORE),
  listBatches: ok('200', NO_STORE),
  getBatch: ok('200', NO_STORE),
  listBatchItems: ok('200', NO_STORE),
  cancelBatch: ok('200', NO_STORE),
  getMetrics: ok('200', NO_STORE),
  getVersion: ok('200', NO_STORE),
  signIn: SESSION,
  getSession: SESSION,
  signOut: SESSION,
  setSessionMode: SESSION,
  setSessionTeam: SESSION,
  signInWithLink: SESSION,
  setPassword: SESSION,
  requestPasswordReset: SESSION,
  confirmPasswordReset: SESSION,
  verifyEmail: SESSION,
  acceptInvitationAsNewUser: SESSION,
  acceptInvitation: SESSION,
  listWebhookEndpoints: WEBHOOK,
  createWebhookEndpoint: WEBHOOK,
  getWebhookEndpoint: WEBHOOK,
  updateWebhookEndpoint: WEBHOOK,
  deleteWebhookEndpoint: WEBHOOK,
  rotateWebhookSecret: WEBHOOK,
  sendWebhookTestEvent: WEBHOOK,
  listWebhookDeliveries: WEBHOOK,
  retryWebhookDelivery: WEBHOOK,
};

/** `components.headers` entries: the TypeBox literal's description moves up, the rest is the schema. */
export function sentHeaderComponents(): Json {
  const out: Json = {};
  for (const [name, { schema }] of Object.entries(COMPONENTS)) {
    const copy: Json = { ...schema };
    const { description, ...rest } = copy;
    out[name] = { description, schema: rest };
  }
  return out;
}

/** Adds the `headers` references of the operation's sent headers to its responses (in place). */
export function declareSentHeaders(operation: Json): void {
  const sent = SENT_HEADERS[String(operation.operationId)];
  if (!sent) return;
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  for (const [status, response] of Object.entries(responses)) {
    if ('$ref' in response) continue;
    if (sent.statuses !== 'every' && !sent.statuses.includes(status)) continue;
    const headers: Json = { ...((response.headers as Json | undefined) ?? {}) };
    for (const name of sent.components) {
      headers[COMPONENTS[name].header] = { $ref: `#/components/headers/${name}` };
    }
    response.headers = headers;
  }
}
