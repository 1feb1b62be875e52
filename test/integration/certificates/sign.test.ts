import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { extractSignature } from '@signpdf/utils';
import * as pkijs from 'pkijs';
import { makePkcs12 } from '../../helpers/certificates.js';
import { pdfTool } from '../../helpers/pdf.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { type TestTsa, tsaForBlock } from '../../helpers/tsa.js';
import { waitFor } from '../../helpers/wait.js';
import { completedBatch, createTemplate, invoiceItems, unzipAll } from '../batches/helpers.js';
import { checkPdfAConformance, REPORT_HTML } from '../pdf/finishing-checks.js';

const SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';
const SIGNING_TIME = '1.2.840.113549.1.9.5';
const SIGNATURE_TIMESTAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';

/** The CMS SignedData in the file's /Contents. */
function signedData(pdf: Buffer): pkijs.SignedData {
  const [start = 0, length = 0, next = 0] = (extractSignature(pdf) as { ByteRange: number[] }).ByteRange;
  // The whole /Contents <…> with its zero padding: extractSignature's own `signature` strips every trailing
  // "00", which cuts a DER whose last byte is 0 (1 signature in 256). The DER parser stops at its own end.
  const hex = pdf.subarray(start + length + 1, next - 1).toString('latin1');
  const info = pkijs.ContentInfo.fromBER(new Uint8Array(Buffer.from(hex, 'hex')));
  return new pkijs.SignedData({ schema: info.content });
}

/** What pdfsig says about the file's one signature. */
async function pdfsig(pdf: Buffer): Promise<string> {
  return (await pdfTool('pdfsig', [], pdf)).stdout;
}

/** pdfsig: valid, covering the whole file (nothing changed after signing), by the test signer, PAdES. */
async function assertSignedBy(pdf: Buffer, commonName: string): Promise<void> {
  const out = await pdfsig(pdf);
  assert.match(out, /Signature Validation: Signature is Valid\./, out);
  assert.match(out, /Total document signed/, out);
  assert.match(out, new RegExp(`Signer Certificate Common Name: ${commonName}`), out);
  assert.match(out, /Signature Type: ETSI\.CAdES\.detached/, out);
  assert.match(out, /Signing Hash Algorithm: SHA-256/, out);
}

/** Uploads a PKCS#12 of makePkcs12's (passphrase "secret") as a certificate of the team; its id. */
async function uploadCertificate(
  server: TestServer,
  team: TestTeam,
  name: string,
  pkcs12 = makePkcs12(),
): Promise<string> {
  const r = await api(server.base, 'POST', '/v1/certificates', {
    key: team.live,
    body: { name, pkcs12_base64: pkcs12.toString('base64'), passphrase: 'secret' },
  });
  assert.equal(r.status, 201, r.text);
  return r.json.id as string;
}

/** `sign` on POST /v1/pdf, async documents, templates and batches. */
describe('sign: PAdES signatures with team certificates', () => {
  let server: TestServer;
  let team: TestTeam;
  /** The ids of the team's two certificates, uploaded before the tests. */
  const certificate = { selfSigned: '', chained: '' };
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 });
  before(async () => {
    const self = makePkcs12({ chain: false, commonName: 'Quire Self Signer' });
    certificate.selfSigned = await uploadCertificate(server, team, 'Self-signed', self);
    const chain = makePkcs12({ chain: true, commonName: 'Quire Chain Signer' });
    certificate.chained = await uploadCertificate(server, team, 'Chained', chain);
  });

  const render = (body: Record<string, unknown>, key = team.live) =>
    api(server.base, 'POST', '/v1/pdf', { key, body: { html: REPORT_HTML, ...body } });

  it('signs a document: pdfsig reports it valid and unmodified; GET /pdf/<id> says signed', async () => {
    const r = await render({
      sign: { certificate_id: certificate.selfSigned, reason: 'Approved', location: 'Berlin' },
    });
    assert.equal(r.status, 200, r.text);
    await assertSignedBy(r.buffer, 'Quire Self Signer');
    const id = r.headers.get('x-document-id');
    const doc = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: team.live });
    assert.equal(doc.json.signed, true);
    const plain = await render({});
    const plainDoc = await api(server.base, 'GET', `/v1/pdf/${plain.headers.get('x-document-id')}`, {
      key: team.live,
    });
    assert.equal(plainDoc.json.signed, undefined, 'an unsigned document has no signed field');
    assert.match(await pdfsig(plain.buffer), /does not contain any signatures/);
  });

  it('a byte changed after signing makes pdfsig report the signature invalid', async () => {
    const r = await render({ sign: { certificate_id: certificate.chained } });
    assert.equal(r.status, 200, r.text);
    await assertSignedBy(r.buffer, 'Quire Chain Signer');
    const tampered = Buffer.from(r.buffer);
    // A byte of the first page's content area of the file: inside the first signed range, still a PDF.
    const at = tampered.indexOf('/Producer');
    assert.ok(at > 0 && at < tampered.indexOf('/ByteRange'));
    tampered[at + 12] = (tampered[at + 12] ?? 0) ^ 0x01;
    const out = await pdfsig(tampered);
    assert.doesNotMatch(out, /Signature is Valid/, out);
    assert.match(out, /Signature Validation: (Digest Mismatch|Signature is Invalid)/, out);
  });

  it('a signed PDF/A-3b with a visible signature passes the PDF/A checks; the chain is embedded', async () => {
    const r = await render({
      pdf_a: '3b',
      sign: {
        certificate_id: certificate.chained,
        reason: 'Invoice issued',
        contact: 'billing@example.com',
        visible: { page: 2, x: '20mm', y: '230mm', width: '80mm', height: '25mm' },
      },
    });
    assert.equal(r.status, 200, r.text);
    await assertSignedBy(r.buffer, 'Quire Chain Signer');
    await checkPdfAConformance(r.buffer, '3b');
    const page2 = (await pdfTool('pdftotext', ['-f', '2', '-l', '2'], r.buffer, ['-'])).stdout;
    assert.match(page2, /Digitally signed by Quire Chain Signer/);
    assert.match(page2, /Reason: Invoice issued/);
    const cms = signedData(r.buffer);
    const subjects = (cms.certificates ?? []).map((c) =>
      'subject' in c ? c.subject.typesAndValues.map((t) => t.value.valueBlock.value).join(',') : '',
    );
    assert.deepEqual(subjects, ['Quire Chain Signer,Quire Tests,DE', 'Quire Test CA,Quire Tests']);
    const attributes = cms.signerInfos[0]?.signedAttrs?.attributes.map((a) => a.type) ?? [];
    assert.ok(attributes.includes(SIGNING_CERTIFICATE_V2), `signing-certificate-v2 in ${attributes}`);
    assert.ok(!attributes.includes(SIGNING_TIME), 'PAdES B-B: no signing-time attribute (the time is /M)');
  });

  it('test mode signs too (the watermark is signed content)', async () => {
    const r = await render({ sign: { certificate_id: certificate.selfSigned } }, team.test);
    assert.equal(r.status, 200, r.text);
    await assertSignedBy(r.buffer, 'Quire Self Signer');
  });

  it('refuses sign with protect, an unknown or another team’s certificate, and a page beyond the end', async () => {
    const withProtect = await render({
      sign: { certificate_id: certificate.selfSigned },
      protect: { owner_password: 'o' },
    });
    assert.equal(withProtect.status, 400, withProtect.text);
    assert.equal(withProtect.json.error.details.field, 'sign');
    const other = await server.team('growth');
    for (const [key, id] of [
      [team.live, '00000000-0000-4000-8000-000000000000'],
      [other.live, certificate.selfSigned],
    ] as const) {
      const r = await render({ sign: { certificate_id: id } }, key);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.code, 'invalid_request');
      assert.equal(r.json.error.details.field, 'sign.certificate_id');
      const queued = await render({ sign: { certificate_id: id }, async: true }, key);
      assert.equal(queued.status, 400, 'refused before it is queued');
      assert.equal(queued.json.error.details.field, 'sign.certificate_id');
    }
    const xml = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: {
        e_invoice: { standard: 'xrechnung-cii', invoice: {} },
        sign: { certificate_id: certificate.selfSigned },
      },
    });
    assert.equal(xml.status, 400, xml.text);
    assert.equal(xml.json.error.details.field, 'sign', 'an XRechnung is XML: nothing to sign');
    const page = await render({
      sign: {
        certificate_id: certificate.selfSigned,
        visible: { page: 9, x: '0', y: '0', width: '50mm', height: '20mm' },
      },
    });
    assert.equal(page.status, 400, page.text);
    assert.equal(page.json.error.details.field, 'sign.visible.page');
    const badLength = await render({
      sign: {
        certificate_id: certificate.selfSigned,
        visible: { page: 1, x: '1 cm', y: '0', width: '5', height: '2cm' },
      },
    });
    assert.equal(badLength.status, 400, badLength.text);
  });

  it('signs queued documents, template renders and batch items with the certificate stored by id', async () => {
    const queued = await render({ sign: { certificate_id: certificate.chained }, async: true });
    assert.equal(queued.status, 202, queued.text);
    const done = await waitFor(
      'the queued document',
      async () => {
        const d = await api(server.base, 'GET', `/v1/pdf/${queued.json.id}`, { key: team.live });
        return d.json.status === 'succeeded' || d.json.status === 'failed' ? d.json : null;
      },
      90_000,
      250,
    );
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.equal(done.signed, true);
    await assertSignedBy(Buffer.from(await (await fetch(done.url)).arrayBuffer()), 'Quire Chain Signer');

    const template = await api(server.base, 'POST', '/v1/templates', {
      key: team.live,
      body: {
        name: 'Signed',
        html: REPORT_HTML,
        settings: { mode: 'fast', sign: { certificate_id: certificate.selfSigned } },
      },
    });
    assert.equal(template.status, 201, template.text);
    const fromTemplate = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { template_id: template.json.id },
    });
    assert.equal(fromTemplate.status, 200, fromTemplate.text);
    await assertSignedBy(fromTemplate.buffer, 'Quire Self Signer');

    const templateId = await createTemplate(server.base, team.live);
    const finished = await completedBatch(server.base, team.live, {
      template_id: templateId,
      items: invoiceItems(['A-1', 'Ada'], ['A-2', 'Bob']),
      sign: { certificate_id: certificate.chained, reason: 'Batch' },
    });
    assert.equal(finished.counts.succeeded, 2, JSON.stringify(finished));
    const entries = await unzipAll(Buffer.from(await (await fetch(finished.zip.url)).arrayBuffer()));
    assert.equal(entries.size, 2);
    for (const pdf of entries.values()) await assertSignedBy(pdf, 'Quire Chain Signer');
  });

  it('a template whose certificate was deleted since refuses the render with invalid_request', async () => {
    const extra = await uploadCertificate(server, team, 'Soon gone');
    const template = await api(server.base, 'POST', '/v1/templates', {
      key: team.live,
      body: { name: 'Gone', html: REPORT_HTML, settings: { sign: { certificate_id: extra } } },
    });
    assert.equal(template.status, 201, template.text);
    assert.equal(
      (await api(server.base, 'DELETE', `/v1/certificates/${extra}`, { key: team.live })).status,
      204,
    );
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { template_id: template.json.id },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.details.field, 'sign.certificate_id');
  });
});

/** QUIRE_TSA_URL: PAdES B-T, an RFC 3161 token over the signature value from a real TSA on loopback. */
describe('sign with a timestamp authority (QUIRE_TSA_URL)', () => {
  let tsa: TestTsa;
  let server: TestServer;
  let team: TestTeam;
  let certificateId: string;
  tsaForBlock((started) => (tsa = started));
  // The TSA runs by now: the server's config is read in its `before`, after the one above.
  serverWithTeam(
    'growth',
    (both) => ({ server, team } = both),
    () => ({ tsaUrl: tsa.url }),
  );
  before(async () => {
    certificateId = await uploadCertificate(server, team, 'B-T');
  });

  it('embeds the TSA token over the signature value; pdfsig still reports the signature valid', async () => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: REPORT_HTML, pdf_a: '3b', sign: { certificate_id: certificateId } },
    });
    assert.equal(r.status, 200, r.text);
    await assertSignedBy(r.buffer, 'Quire Test Signer');
    await checkPdfAConformance(r.buffer, '3b');
    const signer = signedData(r.buffer).signerInfos[0];
    assert.ok(signer);
    const imprint = createHash('sha256')
      .update(Buffer.from(signer.signature.valueBlock.valueHexView))
      .digest('hex');
    assert.deepEqual(tsa.imprints, [imprint], 'one request, over the signature value');
    const token = signer.unsignedAttrs?.attributes.find((a) => a.type === SIGNATURE_TIMESTAMP_TOKEN);
    assert.ok(token, 'the signatureTimeStampToken attribute');
    const tokenData = new pkijs.SignedData({
      schema: new pkijs.ContentInfo({ schema: token.values[0] }).content,
    });
    const eContent = tokenData.encapContentInfo.eContent;
    assert.ok(eContent);
    const tstInfo = pkijs.TSTInfo.fromBER(new Uint8Array(eContent.getValue()));
    assert.equal(
      Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView).toString('hex'),
      imprint,
    );
  });

  it('a TSA that cannot be reached fails the render with render_failed naming it, never an unstamped file', async () => {
    await tsa.close();
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: REPORT_HTML, sign: { certificate_id: certificateId } },
    });
    assert.equal(r.json?.error?.code, 'render_failed', r.text);
    assert.match(r.json.error.message, /timestamp authority/);
  });
});
