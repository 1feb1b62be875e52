/**
 * Examples of the objects the API answers with, shown by the reference wherever the object appears (a
 * response, a list's items, a webhook event). `npm run lint` checks each against its schema
 * (scripts/openapi-reference-lint.mjs), so an example cannot drift from what the server sends.
 */

const DOCUMENT = {
  id: '8d1c2f7e-4b5a-4c3d-9e8f-0a1b2c3d4e5f',
  status: 'succeeded',
  pages: 2,
  bytes: 48213,
  mode: 'print',
  test: false,
  template_id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  template_version: 3,
  error_code: null,
  created_at: '2026-11-26T09:14:03.120Z',
  expires_at: '2026-12-26T09:14:03.120Z',
  url: 'https://pdf.example.com/v1/files/8d1c2f7e-4b5a-4c3d-9e8f-0a1b2c3d4e5f?exp=1798276443&sig=9c1f…',
  thumbnail_url:
    'https://pdf.example.com/v1/thumbnails/documents/8d1c2f7e-4b5a-4c3d-9e8f-0a1b2c3d4e5f.png?exp=1798276443&sig=41ab…',
  delivery: null,
};

const BATCH = {
  id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  status: 'completed',
  template_id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  template_version: 3,
  test: false,
  counts: { total: 120, queued: 0, processing: 0, succeeded: 119, failed: 1, canceled: 0 },
  metadata: { run: 'november-invoices' },
  created_at: '2026-11-26T09:00:00.000Z',
  completed_at: '2026-11-26T09:02:41.503Z',
  zip: {
    url: 'https://pdf.example.com/v1/batches/5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b/zip?exp=1798275600&sig=77d0…',
    expires_at: '2026-12-26T09:02:41.503Z',
  },
};

const TEAM = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', name: 'Acme GmbH', plan: 'growth' };

export const RESPONSE_EXAMPLES: Record<string, unknown> = {
  Error: {
    error: {
      code: 'invalid_request',
      message: 'data.items[0].price must be a number.',
      docs_url: 'https://pdf.example.com/docs/errors#invalid_request',
      details: { field: 'data.items[0].price' },
    },
  },
  Document: DOCUMENT,
  QueuedDocument: { id: DOCUMENT.id, status: 'queued', created_at: DOCUMENT.created_at },
  TemplateSummary: {
    id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
    name: 'Invoice',
    current_version: 4,
    pinned_version: 3,
    updated_at: '2026-11-20T16:45:12.000Z',
    thumbnail_url:
      'https://pdf.example.com/v1/thumbnails/templates/3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f.png?v=4&exp=1798276443&sig=0b2e…',
  },
  Batch: BATCH,
  WebhookEndpoint: {
    id: '0f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f',
    url: 'https://example.com/hooks/quire',
    description: 'Orders system',
    events: ['pdf.created', 'pdf.failed', 'batch.completed'],
    mode: 'live',
    status: 'enabled',
    disabled_reason: null,
    secret_prefix: 'whsec_3kF9',
    created_at: '2026-11-02T11:00:00.000Z',
    updated_at: '2026-11-02T11:00:00.000Z',
  },
  WebhookDelivery: {
    id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    event_id: 'evt_4f6c0e1d2b3a49588776a5b4c3d2e1f0',
    event_type: 'batch.completed',
    status: 'succeeded',
    attempts: 1,
    response_status: 200,
    response_body: 'ok',
    last_error: null,
    duration_ms: 84,
    test_event: false,
    created_at: '2026-11-26T09:02:41.600Z',
    last_attempt_at: '2026-11-26T09:02:41.690Z',
    next_attempt_at: null,
    event: {
      id: 'evt_4f6c0e1d2b3a49588776a5b4c3d2e1f0',
      type: 'batch.completed',
      created_at: '2026-11-26T09:02:41.600Z',
      livemode: true,
      data: BATCH,
    },
  },
  Template: {
    id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
    name: 'Invoice',
    current_version: 4,
    pinned_version: 3,
    updated_at: '2026-11-20T16:45:12.000Z',
    version: 4,
    html: '<h1>Invoice {{ number }}</h1>\n<p>{{ customer.name }}</p>',
    css: 'h1 { font: 600 20pt system-ui; }',
    sample_data: { number: '2026-0001', customer: { name: 'Ada Lovelace' } },
    settings: { mode: 'print', format: 'A4', margin: '20mm' },
    thumbnail_url:
      'https://pdf.example.com/v1/thumbnails/templates/3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f.png?v=4&exp=1798276443&sig=0b2e…',
  },
  TemplateVersion: {
    version: 4,
    created_at: '2026-11-20T16:45:12.000Z',
    message: 'Bigger logo',
    author: 'ada@example.com',
  },
  TemplatePreviewPages: {
    page_count: 2,
    pages: [
      { page: 1, width: 1000, height: 1414, png_base64: 'iVBORw0KGgoAAAANSUhEUgAAA+gAAAWG…' },
      { page: 2, width: 1000, height: 1414, png_base64: 'iVBORw0KGgoAAAANSUhEUgAAA+gAAAWG…' },
    ],
    truncated: false,
  },
  DocumentActivity: {
    document_id: DOCUMENT.id,
    data: [
      { status: 'queued', at: '2026-11-26T09:14:02.950Z', duration_ms: null },
      { status: 'processing', at: '2026-11-26T09:14:03.010Z', duration_ms: null },
      {
        status: 'succeeded',
        at: '2026-11-26T09:14:03.120Z',
        duration_ms: 170,
        pages: 2,
        warnings: [],
        timings_ms: { render: 12, load: 61, analyze: 4, pdf: 83, post: 10 },
      },
    ],
  },
  ApiKey: {
    id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
    name: 'CI',
    mode: 'live',
    role: 'member',
    prefix: 'qk_live_7Hq2',
    created_at: '2026-11-02T11:00:00.000Z',
    created_by: { kind: 'user', id: 'usr_0cc175b9c0f1b6a831c399e269772661' },
    revoked_at: null,
  },
  Member: {
    user_id: 'usr_0cc175b9c0f1b6a831c399e269772661',
    email: 'ada@example.com',
    role: 'owner',
    created_at: '2026-10-01T08:00:00.000Z',
  },
  Invitation: {
    id: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    email: 'grace@example.com',
    role: 'member',
    created_at: '2026-11-25T10:00:00.000Z',
    expires_at: '2026-12-02T10:00:00.000Z',
  },
  BrandAsset: {
    id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
    kind: 'font',
    name: 'brand_sans',
    content_type: 'font/woff2',
    bytes: 48120,
    family: 'Brand Sans',
    url: 'https://pdf.example.com/v1/brand-assets/2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f.woff2?sig=5d1a…',
    created_at: '2026-11-02T11:00:00.000Z',
  },
  Usage: {
    plan: 'growth',
    period_start: '2026-11-01T00:00:00.000Z',
    period_end: '2026-12-01T00:00:00.000Z',
    docs_used: 4120,
    docs_included: 10000,
    rollover_docs: 0,
    overage_docs: 0,
    overage_cost_cents: 0,
    spending_cap_cents: 5000,
    overage_blocked_reason: null,
  },
  Me: {
    team: TEAM,
    plan: {
      id: 'growth',
      name: 'Growth',
      docs_per_period: 10000,
      rate_limit_per_min: 120,
      webhooks: true,
      batch_max_items: 5000,
      emails_per_day: 2000,
    },
    key: { id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d', name: 'CI', mode: 'live', prefix: 'qk_live_7Hq2' },
  },
  Account: { team: TEAM, key: { mode: 'live', prefix: 'qk_live_7Hq2' } },
};
