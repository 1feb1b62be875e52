import { createHash, webcrypto } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { makeTsaIdentity } from './certificates.js';

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
};

const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as Crypto });

export interface TestTsa {
  url: string;
  /** The requests answered, in order (their SHA-256 message imprints, hex). */
  imprints: string[];
  close(): Promise<void>;
}

/**
 * A real RFC 3161 timestamp authority on loopback for tests: it parses each TimeStampReq and answers a
 * granted TimeStampResp whose token is a CMS SignedData over a TSTInfo (echoing the imprint and nonce),
 * signed by a test TSA certificate. Enough for a signer to embed and a reader to check.
 */
export async function startTsa(): Promise<TestTsa> {
  const identity = makeTsaIdentity();
  const cert = pkijs.Certificate.fromBER(new Uint8Array(identity.certDer));
  const key = await webcrypto.subtle.importKey(
    'pkcs8',
    new Uint8Array(identity.keyPkcs8),
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const imprints: string[] = [];
  let serial = 0;

  const answer = async (body: Buffer): Promise<Buffer> => {
    const request = pkijs.TimeStampReq.fromBER(new Uint8Array(body));
    imprints.push(Buffer.from(request.messageImprint.hashedMessage.valueBlock.valueHexView).toString('hex'));
    serial += 1;
    const tstInfo = new pkijs.TSTInfo({
      version: 1,
      policy: '1.3.6.1.4.1.4146.2.3',
      messageImprint: request.messageImprint,
      serialNumber: new asn1js.Integer({ value: serial }),
      genTime: new Date(),
      ...(request.nonce ? { nonce: request.nonce } : {}),
    });
    const content = tstInfo.toSchema().toBER(false);
    const signed = new pkijs.SignedData({
      version: 3,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({
        eContentType: OID.tstInfo,
        eContent: new asn1js.OctetString({ valueHex: content }),
      }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              new pkijs.Attribute({
                type: OID.contentType,
                values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })],
              }),
              new pkijs.Attribute({
                type: OID.messageDigest,
                values: [
                  new asn1js.OctetString({
                    valueHex: createHash('sha256').update(Buffer.from(content)).digest(),
                  }),
                ],
              }),
            ],
          }),
        }),
      ],
      certificates: request.certReq ? [cert] : [],
    });
    await signed.sign(key as unknown as CryptoKey, 0, 'SHA-256', undefined, engine);
    const response = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({ status: 0 }),
      timeStampToken: new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) }),
    });
    return Buffer.from(response.toSchema().toBER(false));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(Buffer.concat(chunks)).then(
        (body) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body),
        () => res.writeHead(400).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    imprints,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * For the describe block it is called in: a TSA (startTsa), closed after the block; `use` receives it once it
 * runs (in a `before` hook where the call stands: ahead of the block's later ones, such as a server's whose
 * config names its URL).
 */
export function tsaForBlock(use: (tsa: TestTsa) => void): void {
  let tsa: TestTsa | undefined;
  before(async () => {
    tsa = await startTsa();
    use(tsa);
  });
  after(async () => tsa?.close());
}
