import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { AppError } from '../shared/errors.js';

/**
 * The key and certificates a signature is made with: decrypted for one document only (the certificates
 * capability opens them at signing time), never stored in this form.
 */
export interface SigningKey {
  /** PKCS#8 DER of an RSA private key. */
  keyPkcs8: Uint8Array;
  /** DER certificates, the signing certificate first, then its issuers. */
  chain: Uint8Array[];
  /** The signing certificate's subject common name: the signature's /Name and its visible text. */
  signerName: string;
  /** An RFC 3161 timestamp authority (QUIRE_TSA_URL): the signature gets its token (PAdES B-T). */
  timestampUrl?: string;
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  /** id-aa-signingCertificateV2 (RFC 5035): PAdES baseline requires it (ETSI EN 319 142-1 §6.3). */
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  /** id-aa-signatureTimeStampToken (RFC 3161 appendix A): an unsigned attribute of the signer. */
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

/** How long a timestamp authority has to answer; a signature is the last step of a render. */
const TSA_TIMEOUT_MS = 10_000;
/** Room for a timestamp token in the placeholder (a TSA's chain and signature; typically 3–6 KB). */
const TIMESTAMP_ROOM = 12_288;

const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as Crypto });

function attribute(type: string, value: asn1js.AsnType): pkijs.Attribute {
  return new pkijs.Attribute({ type, values: [value] });
}

/**
 * ESS signing-certificate-v2: the SHA-256 of the signing certificate plus its issuer and serial, so the
 * signature names the certificate it was made with (SHA-256 is the default hash, so it is left out, as
 * DER requires).
 */
function signingCertificateV2(cert: pkijs.Certificate, der: Uint8Array): asn1js.Sequence {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          new asn1js.Constructed({
            idBlock: { tagClass: 3, tagNumber: 4 },
            value: [cert.issuer.toSchema()],
          }),
        ],
      }),
      cert.serialNumber,
    ],
  });
  const certHash = createHash('sha256').update(der).digest();
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: certHash }), issuerSerial],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

/**
 * A detached CMS SignedData over `content` (the PDF's byte ranges): SHA-256 with RSA (PKCS#1 v1.5),
 * signed attributes content-type, message-digest and signing-certificate-v2, the whole chain embedded,
 * no signing-time attribute (PAdES B-B puts the claimed time in the signature dictionary's /M).
 */
export async function signDetached(content: Uint8Array, key: SigningKey): Promise<Buffer> {
  const certificates = key.chain.map((der) => pkijs.Certificate.fromBER(new Uint8Array(der)));
  const signer = certificates[0];
  const signerDer = key.chain[0];
  if (!signer || !signerDer) throw new Error('A signing key needs its certificate.');
  const digest = createHash('sha256').update(content).digest();
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
            attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: digest })),
            attribute(OID.signingCertificateV2, signingCertificateV2(signer, signerDer)),
          ],
        }),
      }),
    ],
    certificates,
  });
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    new Uint8Array(key.keyPkcs8),
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  await signedData.sign(privateKey as unknown as CryptoKey, 0, 'SHA-256', undefined, engine);
  if (key.timestampUrl) await addTimestamp(signedData, key.timestampUrl);
  const contentInfo = new pkijs.ContentInfo({
    contentType: OID.signedData,
    content: signedData.toSchema(true),
  });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}

/**
 * Room for the signature in the file: the certificates, one RSA signature and the attributes, with
 * margin. The placeholder is written before the signature exists, so it is sized from what goes in it.
 */
export function signatureSizeOf(key: SigningKey): number {
  const certificates = key.chain.reduce((sum, der) => sum + der.length, 0);
  return certificates + key.keyPkcs8.length + 2048 + (key.timestampUrl ? TIMESTAMP_ROOM : 0);
}

function timestampFailed(url: string, why: string): AppError {
  return new AppError(
    'render_failed',
    `The timestamp authority (QUIRE_TSA_URL ${new URL(url).host}) ${why}; the document was not signed.`,
    { field: 'sign' },
  );
}

/** Asks the TSA for a token over the SHA-256 of the signature value (RFC 3161 §2.4.1). */
async function requestTimestamp(url: string, signature: Uint8Array): Promise<pkijs.ContentInfo> {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: createHash('sha256').update(signature).digest() }),
    }),
    nonce: new asn1js.Integer({ valueHex: randomBytes(8) }),
    certReq: true,
  });
  let reply: Response;
  try {
    reply = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: Buffer.from(request.toSchema().toBER(false)),
      signal: AbortSignal.timeout(TSA_TIMEOUT_MS),
    });
  } catch (err) {
    throw timestampFailed(url, `could not be reached (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!reply.ok) throw timestampFailed(url, `answered HTTP ${reply.status}`);
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(new Uint8Array(await reply.arrayBuffer()));
  } catch {
    throw timestampFailed(url, 'sent an answer that is not a timestamp response');
  }
  // PKIStatus granted (0) or grantedWithMods (1) carry a token; anything else is a refusal.
  if (response.status.status > 1 || !response.timeStampToken)
    throw timestampFailed(url, `refused the request (status ${response.status.status})`);
  return response.timeStampToken;
}

/** PAdES B-T: the TSA's token over the signature value, as the signer's unsigned attribute. */
async function addTimestamp(signedData: pkijs.SignedData, url: string): Promise<void> {
  const signer = signedData.signerInfos[0];
  if (!signer) return;
  const token = await requestTimestamp(url, new Uint8Array(signer.signature.valueBlock.valueHexView));
  signer.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 1,
    attributes: [attribute(OID.signatureTimeStampToken, token.toSchema())],
  });
}
