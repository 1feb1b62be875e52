// A program in a separate project that installed @quire/client from its packed tarball
// (test/integration/client/package.test.ts compiles it there with tsc, then runs it): every resource method
// once, against a real server. It prints what it saw as one JSON object for the test to check.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Quire, QuireError, type WebhookEvent } from '@quire/client';

const quire = new Quire({ baseUrl: process.env.QUIRE_BASE ?? '', apiKey: process.env.QUIRE_KEY ?? '' });
const seen: Record<string, unknown> = {};
const magic = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 4)).toString('latin1');

/** A webhook receiver of the program's own: the raw body and signature header of every delivery. */
function startReceiver() {
  const deliveries: Array<{ body: string; signature: string }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(request.headers['quire-signature']),
      });
      response.end('ok');
    });
  });
  return new Promise<{ url: string; deliveries: typeof deliveries; close: () => void }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/hook`, deliveries, close: () => server.close() });
    });
  });
}

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gave up waiting');
}

async function account() {
  seen.me = (await quire.account.me()).team.id;
  seen.account = (await quire.account.retrieve()).team.id;
  seen.usagePlan = (await quire.account.usage()).plan;
}

async function keys() {
  const created = await quire.keys.create({ name: 'from the tour', mode: 'test' });
  seen.keyShownOnce = created.secret.startsWith('qk_test_');
  seen.keyNames = (await quire.keys.list().toArray()).map((key) => key.name);
  seen.keyRevoked = (await quire.keys.revoke(created.key.id)).revoked_at !== null;
}

async function members() {
  const target = process.env.QUIRE_MEMBER_ID ?? '';
  seen.memberCount = (await quire.members.list().toArray()).length;
  seen.memberRole = (await quire.members.setRole(target, 'admin')).role;
  // revokeKeys reaches the server as ?revoke_keys=true; the answer is the member as they were.
  seen.removedMember = (await quire.members.remove(target, { revokeKeys: true })).user_id === target;
  seen.membersAfterRemove = (await quire.members.list().toArray()).length;
  const invitation = await quire.members.invitations.create({ email: 'new@tour.example', role: 'member' });
  seen.invitations = (await quire.members.invitations.list().toArray()).map((i) => i.email);
  await quire.members.invitations.delete(invitation.id);
  seen.invitationsAfterDelete = (await quire.members.invitations.list().toArray()).length;
}

async function brandAssets() {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="red"/></svg>';
  const asset = await quire.brandAssets.upload({
    kind: 'logo',
    name: 'Tour logo',
    content_base64: Buffer.from(svg).toString('base64'),
  });
  seen.assetNames = (await quire.brandAssets.list().toArray()).map((a) => a.name);
  seen.assetMagic = magic(await quire.brandAssets.download(asset));
  await quire.brandAssets.delete(asset.id);
  seen.assetsAfterDelete = (await quire.brandAssets.list().toArray()).length;
}

async function certificates() {
  const certificate = await quire.certificates.upload({
    name: 'Tour signer',
    pkcs12_base64: process.env.QUIRE_P12_BASE64 ?? '',
    passphrase: process.env.QUIRE_P12_PASSPHRASE ?? '',
  });
  seen.certificate = { subject: certificate.subject, fingerprint: certificate.fingerprint_sha256 };
  seen.certificateNames = (await quire.certificates.list().toArray()).map((c) => c.name);
  await quire.certificates.delete(certificate.id);
  seen.certificatesAfterDelete = (await quire.certificates.list().toArray()).length;
}

async function eInvoices() {
  const xml = readFileSync(process.env.QUIRE_EINVOICE_FILE ?? '');
  const received = { filename: 'base-example.xml', content_base64: xml.toString('base64') };
  const report = await quire.eInvoices.validate(received);
  seen.eInvoiceReport = { valid: report.valid, standard: report.standard, errors: report.errors.length };
  const peppol = await quire.eInvoices.validate({ ...received, profile: 'peppol' });
  seen.eInvoicePeppolProfile = peppol.profile;
  const parsed = await quire.eInvoices.parse(received);
  seen.eInvoiceParsed = { number: parsed.invoice.number, due: parsed.totals.due_payable };
  try {
    await quire.eInvoices.parse({
      filename: 'notes.txt',
      content_base64: Buffer.from('hello').toString('base64'),
    });
  } catch (error) {
    seen.eInvoiceRefused = error instanceof QuireError ? [error.code, error.details?.field] : String(error);
  }
}

/** The gallery: a template made from a starter, the starter's thumbnail, and an unknown starter. */
async function starters() {
  const gallery = await quire.templates.starters().toArray();
  seen.starterIds = gallery.map((s) => s.id).sort();
  const invoice = gallery.find((s) => s.id === 'invoice');
  if (!invoice) throw new Error('no invoice starter');
  const { name, html, css, sample_data, settings } = invoice;
  const template = await quire.templates.create({ name, html, css, sample_data, settings });
  seen.fromStarter = (await quire.templates.fields(template.id)).fields.length > 0;
  await quire.templates.delete(template.id);
  seen.starterThumbnail = magic(await quire.templates.starterThumbnail('invoice'));
  try {
    await quire.templates.starterThumbnail('no-such-starter');
  } catch (error) {
    seen.starterMissing = error instanceof QuireError ? [error.code, error.status] : String(error);
  }
}

/** Daily usage after everything rendered: its live bars add up to the period's usage. */
async function dailyUsage() {
  const daily = await quire.account.dailyUsage();
  const usage = await quire.account.usage();
  seen.daily = {
    live: daily.live_total,
    docsUsed: usage.docs_used,
    lastDay: daily.data.at(-1)?.day,
    to: daily.to,
  };
  try {
    await quire.account.dailyUsage({ from: '2026-05-31', to: '2026-05-01' });
  } catch (error) {
    seen.dailyRefused = error instanceof QuireError ? [error.code, error.details?.field] : String(error);
  }
}

async function templates() {
  const template = await quire.templates.create({
    name: 'Tour invoice',
    html: '<h1>Invoice {{ number }}</h1><p>{{ customer.name }}</p>',
    sample_data: { number: '1', customer: { name: 'Sample' } },
  });
  await quire.templates.create({ name: 'Tour letter', html: '<p>Dear {{ name }}</p>' });
  seen.templatePages = (await quire.templates.list({ limit: 1 }).firstPage()).data.length;
  seen.templateNames = (await quire.templates.list({ limit: 1 }).toArray()).map((t) => t.name).sort();
  const updated = await quire.templates.update(template.id, { html: '<h1>Invoice no. {{ number }}</h1>' });
  seen.templateVersion = updated.current_version;
  seen.versions = (await quire.templates.versions.list(template.id).toArray()).map((v) => v.version);
  seen.pinned = (await quire.templates.pin(template.id, 1)).pinned_version;
  seen.retrievedVersion = (await quire.templates.retrieve(template.id, { version: 2 })).version;
  seen.fields = (await quire.templates.fields(template.id, { version: 1 })).fields.map((f) => f.path);
  const preview = await quire.templates.preview(template.id, { data: { number: '7' } });
  seen.previewType = preview.contentType;
  const draft = await quire.templates.previewDraft(template.id, { html: '<p>Draft</p>' });
  seen.draftMagic = magic(draft.bytes);
  return template.id;
}

async function pdfsAndDocuments(templateId: string) {
  const file = await quire.pdf({
    template_id: templateId,
    data: { number: '1001', customer: { name: 'Ada' } },
  });
  seen.pdf = { magic: magic(file.bytes), pages: file.pages };
  const linked = await quire.pdfUrl({ html: '<p>linked</p>' });
  seen.linkedMagic = magic(await quire.documents.download(linked));
  const queued = await quire.pdfAsync({ html: '<p>later</p>' });
  seen.waited = (await quire.documents.waitFor(queued.id, { intervalMs: 200, timeoutMs: 120_000 })).status;
  seen.retrieved = (await quire.documents.retrieve(file.documentId)).status;
  seen.activity = (await quire.documents.activity(linked.id)).data.length > 0;
  const ids: string[] = [];
  for await (const document of quire.documents.list({ limit: 1 })) ids.push(document.id);
  seen.documentsIterated = ids.length;
  seen.documentsDistinct = new Set(ids).size;
}

async function spreadsheetsAndBatches(templateId: string) {
  const csv = 'number,customer.name\n2001,Grace\n2002,Linus\n2003,Ada\n';
  const parsed = await quire.spreadsheets.parse({
    filename: 'rows.csv',
    content_base64: Buffer.from(csv).toString('base64'),
    template_id: templateId,
  });
  seen.spreadsheet = { rows: parsed.row_count, columns: parsed.columns };
  const batch = await quire.batches.create({
    template_id: templateId,
    items: ['3001', '3002', '3003'].map((number) => ({ data: { number, customer: { name: 'B' } } })),
  });
  const done = await quire.batches.waitFor(batch.id, { intervalMs: 250, timeoutMs: 180_000 });
  seen.batch = done.counts;
  seen.batchRetrieved = (await quire.batches.retrieve(batch.id)).status;
  seen.batchItems = (await quire.batches.items.list(batch.id, { limit: 2 }).toArray()).map((i) => i.status);
  seen.zipMagic = magic(await quire.batches.downloadZip(done));
  seen.batchesListed = (await quire.batches.list({ limit: 1 }).toArray()).length;
  seen.canceled = (await quire.batches.cancel(batch.id)).id === batch.id;
}

async function webhooks() {
  const receiver = await startReceiver();
  try {
    const endpoint = await quire.webhooks.create({ url: receiver.url, events: ['pdf.created'] });
    const secret = endpoint.secret ?? '';
    seen.webhookUrls = (await quire.webhooks.list().toArray()).map((w) => w.url === receiver.url);
    seen.webhookRetrieved = (await quire.webhooks.retrieve(endpoint.id)).id === endpoint.id;
    seen.webhookUpdated = (await quire.webhooks.update(endpoint.id, { description: 'tour' })).description;
    const { delivery_id } = await quire.webhooks.sendTestEvent(endpoint.id);
    const first = await until(() => receiver.deliveries[0]);
    const event: WebhookEvent = quire.webhooks.constructEvent(first.body, first.signature, secret);
    seen.event = { type: event.type, test: event.test_event === true, hasDocumentId: 'id' in event.data };
    try {
      quire.webhooks.constructEvent(`${first.body} `, first.signature, secret);
    } catch (error) {
      seen.tampered = error instanceof QuireError ? [error.code, error.details?.reason] : String(error);
    }
    const deliveries = await quire.webhooks.deliveries.list(endpoint.id).toArray();
    seen.deliveryListed = deliveries.some((d) => d.id === delivery_id);
    seen.retried = typeof (await quire.webhooks.deliveries.retry(endpoint.id, delivery_id)).delivery_id;
    const rotated = await quire.webhooks.rotateSecret(endpoint.id);
    seen.rotated = rotated.secret !== undefined && rotated.secret !== secret;
    await quire.webhooks.delete(endpoint.id);
    seen.webhooksAfterDelete = (await quire.webhooks.list().toArray()).length;
  } finally {
    receiver.close();
  }
}

async function errors() {
  try {
    await quire.templates.retrieve('00000000-0000-4000-8000-000000000000');
  } catch (error) {
    if (!(error instanceof QuireError)) throw error;
    seen.error = { code: error.code, status: error.status, requestId: error.requestId };
  }
}

await account();
await keys();
await members();
await brandAssets();
const templateId = await templates();
await pdfsAndDocuments(templateId);
await spreadsheetsAndBatches(templateId);
await webhooks();
await certificates();
await eInvoices();
await starters();
await dailyUsage();
await errors();
await quire.templates.delete(templateId);
seen.templateDeleted = await quire.templates.retrieve(templateId).then(
  () => false,
  (error: unknown) => error instanceof QuireError && error.code === 'template_not_found',
);
process.stdout.write(`${JSON.stringify(seen)}\n`);
