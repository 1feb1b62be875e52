/**
 * Code samples of every operation (`x-codeSamples`, which Redoc and Scalar show; the /docs page shows them
 * under the description): curl, and the TypeScript client's method (clients/typescript) where it has one.
 */

type Json = Record<string, unknown>;

interface Sample {
  lang: string;
  label: string;
  source: string;
}

/** The client call of an operation; `BODY` stands for the request example, `id` for the path's ids. */
export const CLIENT_CALLS: Record<string, string> = {
  createPdf:
    "const file = await quire.pdf(BODY);\nawait writeFile('out.pdf', file.bytes); // import { writeFile } from 'node:fs/promises'",
  getDocument: 'const document = await quire.documents.retrieve(id);',
  listDocuments:
    "for await (const document of quire.documents.list({ status: 'failed' })) console.log(document.id);",
  getDocumentActivity: 'const { data } = await quire.documents.activity(id);',
  downloadFile: 'const bytes = await quire.documents.download(document);',
  createTemplate: 'const template = await quire.templates.create(BODY);',
  listTemplates: 'for await (const template of quire.templates.list()) console.log(template.name);',
  getTemplate: 'const template = await quire.templates.retrieve(id, { version: 2 });',
  updateTemplate: 'const template = await quire.templates.update(id, BODY);',
  deleteTemplate: 'await quire.templates.delete(id);',
  listTemplateVersions: 'const versions = await quire.templates.versions.list(id).toArray();',
  pinTemplateVersion: 'await quire.templates.pin(id, 1);',
  getTemplateFields: 'const { fields } = await quire.templates.fields(id);',
  previewTemplate: 'const preview = await quire.templates.preview(id, BODY);',
  previewTemplateDraft: 'const preview = await quire.templates.previewDraft(id, BODY);',
  previewTemplateDraftPages: 'const { pages } = await quire.templates.previewDraftPages(id, BODY);',
  listTemplateStarters: 'const starters = await quire.templates.starters().toArray();',
  getTemplateStarterThumbnail: "const png = await quire.templates.starterThumbnail('invoice');",
  createBatch:
    'const batch = await quire.batches.create(BODY);\nconst done = await quire.batches.waitFor(batch.id);',
  listBatches: 'for await (const batch of quire.batches.list()) console.log(batch.id, batch.status);',
  getBatch: 'const batch = await quire.batches.retrieve(id);',
  listBatchItems:
    'for await (const item of quire.batches.items.list(id)) console.log(item.index, item.status);',
  cancelBatch: 'const batch = await quire.batches.cancel(id);',
  downloadBatchZip: 'const zip = await quire.batches.downloadZip(batch);',
  parseSpreadsheet: 'const preview = await quire.spreadsheets.parse(BODY);',
  listWebhookEndpoints: 'const endpoints = await quire.webhooks.list().toArray();',
  createWebhookEndpoint:
    'const endpoint = await quire.webhooks.create(BODY);\n// Keep endpoint.secret: it is shown only now.',
  getWebhookEndpoint: 'const endpoint = await quire.webhooks.retrieve(id);',
  updateWebhookEndpoint: 'const endpoint = await quire.webhooks.update(id, BODY);',
  deleteWebhookEndpoint: 'await quire.webhooks.delete(id);',
  rotateWebhookSecret: 'const { secret } = await quire.webhooks.rotateSecret(id);',
  sendWebhookTestEvent: 'const { delivery_id } = await quire.webhooks.sendTestEvent(id);',
  listWebhookDeliveries:
    'for await (const delivery of quire.webhooks.deliveries.list(id)) console.log(delivery.status);',
  retryWebhookDelivery: 'await quire.webhooks.deliveries.retry(id, deliveryId);',
  listBrandAssets: 'const assets = await quire.brandAssets.list().toArray();',
  uploadBrandAsset: 'const asset = await quire.brandAssets.upload(BODY);',
  deleteBrandAsset: 'await quire.brandAssets.delete(id);',
  getBrandAssetFile: 'const bytes = await quire.brandAssets.download(asset);',
  listCertificates: 'const certificates = await quire.certificates.list().toArray();',
  uploadCertificate: 'const certificate = await quire.certificates.upload(BODY);',
  deleteCertificate: 'await quire.certificates.delete(id);',
  validateEInvoice:
    'const report = await quire.eInvoices.validate(BODY);\nif (!report.valid) console.log(report.errors);',
  parseEInvoice: 'const { invoice, totals } = await quire.eInvoices.parse(BODY);',
  getMe: 'const me = await quire.account.me();',
  getAccount: 'const account = await quire.account.retrieve();',
  getUsage: 'const usage = await quire.account.usage();',
  getDailyUsage: "const { data } = await quire.account.dailyUsage({ from: '2026-05-01', to: '2026-05-31' });",
  listApiKeys: 'const keys = await quire.keys.list().toArray();',
  createApiKey: 'const { key, secret } = await quire.keys.create(BODY);',
  revokeApiKey: 'await quire.keys.revoke(id);',
  listMembers: 'const members = await quire.members.list().toArray();',
  setMemberRole: "await quire.members.setRole(userId, 'admin');",
  removeMember: 'await quire.members.remove(userId);',
  listInvitations: 'const invitations = await quire.members.invitations.list().toArray();',
  createInvitation: 'const invitation = await quire.members.invitations.create(BODY);',
  deleteInvitation: 'await quire.members.invitations.delete(id);',
};

const CLIENT_SETUP =
  "// @quire/client is not on the npm registry yet: install its tarball (docs/client.md).\nimport { Quire } from '@quire/client';\nconst quire = new Quire({ baseUrl: process.env.QUIRE_URL!, apiKey: process.env.QUIRE_API_KEY! });\n\n";

function firstExample(operation: Json): unknown {
  const content = (operation.requestBody as { content?: Record<string, Json> } | undefined)?.content;
  const examples = content?.['application/json']?.examples as Record<string, { value: unknown }> | undefined;
  return examples ? Object.values(examples)[0]?.value : undefined;
}

/** How the operation is called: with an API key, with nothing (signed links, health), or only by the dashboard. */
function access(operation: Json): 'key' | 'public' | 'session' {
  const security = operation.security as Array<Record<string, unknown>> | undefined;
  if (security === undefined) return 'key';
  if (security.length === 0) return 'public';
  return security.some((requirement) => 'bearer' in requirement) ? 'key' : 'session';
}

function answersFile(operation: Json): boolean {
  const responses = (operation.responses ?? {}) as Record<string, { content?: Json }>;
  const ok = responses['200']?.content ?? {};
  return Object.keys(ok).some((type) => !type.includes('json') && type !== 'text/plain');
}

function curlSample(method: string, url: string, operation: Json, body: unknown): string {
  const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "${url}"`];
  if (access(operation) === 'key') lines.push('-H "Authorization: Bearer $QUIRE_API_KEY"');
  if (body !== undefined) {
    lines.push('-H "Content-Type: application/json"');
    lines.push(`-d '${JSON.stringify(body, null, 2).replaceAll("'", "'\\''")}'`);
  }
  if (answersFile(operation)) lines.push('--output out.pdf');
  return lines.join(' \\\n  ');
}

/** The samples of one operation (`path` as in the document, `versioned` when it lives under /v1). */
export function codeSamples(method: string, path: string, versioned: boolean, operation: Json): Sample[] {
  const body = firstExample(operation);
  const samples: Sample[] = [];
  if (access(operation) !== 'session') {
    const url = `$QUIRE_URL${versioned ? '/v1' : ''}${path}`;
    samples.push({ lang: 'shell', label: 'curl', source: curlSample(method, url, operation, body) });
  }
  const call = CLIENT_CALLS[String(operation.operationId)];
  if (call) {
    const source = call.replace('BODY', JSON.stringify(body ?? {}, null, 2));
    samples.push({
      lang: 'typescript',
      label: 'TypeScript (@quire/client)',
      source: `${CLIENT_SETUP}${source}`,
    });
  }
  return samples;
}

/** The samples as Markdown, for a reference UI that does not read `x-codeSamples` (Swagger UI). */
export function samplesAsMarkdown(samples: readonly Sample[]): string {
  return samples.map((s) => `**${s.label}**\n\n\`\`\`${s.lang}\n${s.source}\n\`\`\``).join('\n\n');
}
