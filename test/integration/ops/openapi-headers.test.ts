import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SENT_HEADERS } from '../../../src/docs/sent-headers.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { createTemplate, waitForBatch } from '../batches/helpers.js';

/**
 * The cache and security headers the OpenAPI document declares are the ones real responses carry: for each
 * operation reached below, every one of these headers is declared with the value sent, and none declared is
 * missing from the response.
 */
const CHECKED = ['cache-control', 'content-security-policy', 'x-content-type-options'] as const;

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is read as plain JSON
type Json = Record<string, any>;

/** Declared value of each checked header on the response `status` of the operation (its `const`). */
function declaredHeaders(document: Json, operationId: string, status: number): Record<string, string> {
  for (const item of Object.values(document.paths as Json)) {
    for (const operation of Object.values(item as Json)) {
      if (operation?.operationId !== operationId) continue;
      const response = operation.responses[String(status)];
      assert.ok(response, `${operationId} documents no ${status} response`);
      const out: Record<string, string> = {};
      for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
        if (!(CHECKED as readonly string[]).includes(name)) continue;
        const ref = String(header.$ref ?? '');
        const resolved = ref ? document.components.headers[ref.split('/').pop() as string] : header;
        out[name] = resolved.schema.const;
      }
      return out;
    }
  }
  throw new Error(`no operation ${operationId} in the document`);
}

function sentHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CHECKED) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

describe('OpenAPI: declared cache and security headers match real responses', () => {
  let server: TestServer;
  let document: Json;
  const checked = new Set<string>();

  /** Compares one real response with the document's declaration for its operation and status. */
  function check(operationId: string, status: number, response: { status: number; headers: Headers }) {
    assert.equal(response.status, status, `${operationId} answered ${response.status}`);
    assert.deepEqual(
      sentHeaders(response.headers),
      declaredHeaders(document, operationId, status),
      `${operationId} ${status}: sent headers (left) differ from the document (right)`,
    );
    checked.add(operationId);
  }

  before(async () => {
    server = await startTestServer({ workers: 1, allowPrivateWebhooks: true });
    const served = await api(server.base, 'GET', '/v1/openapi.json');
    assert.equal(served.status, 200);
    document = served.json;
  });
  after(async () => server?.close());

  it('every operation the list names exists in the document', () => {
    const ids = new Set<string>();
    for (const item of Object.values(document.paths as Json))
      for (const operation of Object.values(item as Json))
        if (operation?.operationId) ids.add(operation.operationId);
    for (const id of Object.keys(SENT_HEADERS)) assert.ok(ids.has(id), `${id} is not an operation`);
  });

  it('documents, signed downloads and thumbnails', async () => {
    const t = await server.team('growth');
    const created = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<h1>Headers</h1>' },
    });
    check('createPdf', 200, created);
    const id = created.headers.get('x-document-id');
    const asUrl = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<h1>Headers</h1>', response: 'url' },
    });
    check('createPdf', 200, asUrl);
    const doc = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: t.live });
    check('getDocument', 200, doc);
    check('listDocuments', 200, await api(server.base, 'GET', '/v1/documents', { key: t.live }));
    check(
      'downloadFile',
      200,
      await api(server.base, 'GET', new URL(doc.json.url).pathname + new URL(doc.json.url).search),
    );
    const thumb = new URL(doc.json.thumbnail_url);
    check('getDocumentThumbnail', 200, await api(server.base, 'GET', thumb.pathname + thumb.search));
    check('getMe', 200, await api(server.base, 'GET', '/v1/me', { key: t.live }));
    check('getHealth', 200, await api(server.base, 'GET', '/healthz'));
  });

  it('templates, previews, batches and their ZIP', async () => {
    const t = await server.team('growth');
    const templateId = await createTemplate(server.base, t.live);
    check('getTemplate', 200, await api(server.base, 'GET', `/v1/templates/${templateId}`, { key: t.live }));
    const list = await api(server.base, 'GET', '/v1/templates', { key: t.live });
    check('listTemplates', 200, list);
    check(
      'listTemplateVersions',
      200,
      await api(server.base, 'GET', `/v1/templates/${templateId}/versions`, { key: t.live }),
    );
    check(
      'previewTemplate',
      200,
      await api(server.base, 'POST', `/v1/templates/${templateId}/preview`, { key: t.live, body: {} }),
    );
    const key = { key: t.live };
    const draft = { html: '<p>Draft</p>' };
    const draftPath = `/v1/templates/${templateId}/draft-preview`;
    check('previewTemplateDraft', 200, await api(server.base, 'POST', draftPath, { ...key, body: draft }));
    check(
      'previewTemplateDraftPages',
      200,
      await api(server.base, 'POST', `${draftPath}/pages`, { ...key, body: { ...draft, image_width: 200 } }),
    );
    check(
      'updateTemplate',
      200,
      await api(server.base, 'PUT', `/v1/templates/${templateId}`, { ...key, body: { name: 'Renamed' } }),
    );
    check(
      'pinTemplateVersion',
      200,
      await api(server.base, 'POST', `/v1/templates/${templateId}/pin`, { ...key, body: { version: 1 } }),
    );
    check('getTemplateFields', 200, await api(server.base, 'GET', `/v1/templates/${templateId}/fields`, key));
    check('getAccount', 200, await api(server.base, 'GET', '/v1/account', key));
    check('getVersion', 200, await api(server.base, 'GET', '/version'));
    const thumb = new URL(list.json.data[0].thumbnail_url);
    check('getTemplateThumbnail', 200, await api(server.base, 'GET', thumb.pathname + thumb.search));
    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: t.live,
      body: { template_id: templateId, items: [{ data: { number: '1', customer: { name: 'Ada' } } }] },
    });
    check('createBatch', 202, batch);
    check('getBatch', 200, await api(server.base, 'GET', `/v1/batches/${batch.json.id}`, { key: t.live }));
    check('listBatches', 200, await api(server.base, 'GET', '/v1/batches', key));
    check('listBatchItems', 200, await api(server.base, 'GET', `/v1/batches/${batch.json.id}/items`, key));
    const done = await waitForBatch(server.base, t.live, batch.json.id);
    check('cancelBatch', 200, await api(server.base, 'POST', `/v1/batches/${batch.json.id}/cancel`, key));
    const zip = new URL(done.zip.url);
    check('downloadBatchZip', 200, await api(server.base, 'GET', zip.pathname + zip.search));
  });

  it('webhook endpoints: every response, errors included', async () => {
    const t = await server.team('growth');
    check('listWebhookEndpoints', 200, await api(server.base, 'GET', '/v1/webhooks', { key: t.live }));
    check(
      'getWebhookEndpoint',
      404,
      await api(server.base, 'GET', '/v1/webhooks/00000000-0000-4000-8000-000000000000', { key: t.live }),
    );
    const bad = await api(server.base, 'POST', '/v1/webhooks', { key: t.live, body: { url: 'nope' } });
    check('createWebhookEndpoint', bad.status, bad);
    const created = await api(server.base, 'POST', '/v1/webhooks', {
      key: t.live,
      body: { url: 'http://127.0.0.1:9/hook', events: ['pdf.created'] },
    });
    check('createWebhookEndpoint', 201, created);
    const path = `/v1/webhooks/${created.json.id}`;
    check('getWebhookEndpoint', 200, await api(server.base, 'GET', path, { key: t.live }));
    check('deleteWebhookEndpoint', 204, await api(server.base, 'DELETE', path, { key: t.live }));
  });

  it('reached a signed download of each kind', () => {
    for (const id of ['downloadFile', 'getDocumentThumbnail', 'getTemplateThumbnail', 'downloadBatchZip'])
      assert.ok(checked.has(id), `${id} was not checked`);
  });
});
