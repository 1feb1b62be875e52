import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';

/**
 * Test certificates made in the test (node-forge): a self-signed signing certificate, or one issued by a
 * test CA (a chain of two), exported as PKCS#12 the way a CA or `openssl pkcs12 -export` hands them out.
 * RSA key generation is the slow part (~0.5 s for 2048 bits), so keys are made once per process.
 */

const keys: forge.pki.rsa.KeyPair[] = [];

function keyPair(index: number): forge.pki.rsa.KeyPair {
  keys[index] ??= forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  return keys[index] as forge.pki.rsa.KeyPair;
}

export interface TestCertificateOptions {
  commonName?: string;
  /** Issued by a test CA ("Quire Test CA") rather than self-signed. */
  chain?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  /** keyUsage of the signing certificate; default digitalSignature + nonRepudiation. */
  keyUsage?: { digitalSignature?: boolean; nonRepudiation?: boolean; keyEncipherment?: boolean };
  passphrase?: string;
  /** Leave the private key out (a certificate-only export). */
  withoutKey?: boolean;
}

const DAY = 86_400_000;

function certificate(
  subjectKey: forge.pki.rsa.PublicKey,
  subject: forge.pki.CertificateField[],
  issuer: { name: forge.pki.CertificateField[]; key: forge.pki.rsa.PrivateKey },
  options: { serial: string; notBefore: Date; notAfter: Date; extensions: object[] },
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = subjectKey;
  cert.serialNumber = options.serial;
  cert.validity.notBefore = options.notBefore;
  cert.validity.notAfter = options.notAfter;
  cert.setSubject(subject);
  cert.setIssuer(issuer.name);
  cert.setExtensions(options.extensions);
  cert.sign(issuer.key, forge.md.sha256.create());
  return cert;
}

/** The test CA ("Quire Test CA"): its name and key as an issuer, and its own self-signed certificate. */
function testCa(now: number) {
  const ca = keyPair(1);
  const name = [
    { name: 'commonName', value: 'Quire Test CA' },
    { name: 'organizationName', value: 'Quire Tests' },
  ];
  const cert = certificate(
    ca.publicKey,
    name,
    { name, key: ca.privateKey },
    {
      serial: '01',
      notBefore: new Date(now - 2 * DAY),
      notAfter: new Date(now + 3650 * DAY),
      extensions: [
        { name: 'basicConstraints', cA: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true },
      ],
    },
  );
  return { name, key: ca.privateKey, cert };
}

/** A PKCS#12 file (DER) with the signing key and its certificate (and the CA's, with `chain`). */
export function makePkcs12(options: TestCertificateOptions = {}): Buffer {
  const now = Date.now();
  const signer = keyPair(0);
  const subject = [
    { name: 'commonName', value: options.commonName ?? 'Quire Test Signer' },
    { name: 'organizationName', value: 'Quire Tests' },
    { name: 'countryName', value: 'DE' },
  ];
  const usage = options.keyUsage ?? { digitalSignature: true, nonRepudiation: true };
  const validity = {
    notBefore: options.notBefore ?? new Date(now - DAY),
    notAfter: options.notAfter ?? new Date(now + 365 * DAY),
  };
  // Self-signed, or issued by the test CA, whose certificate then follows the signer's in the file.
  const ca = options.chain ? testCa(now) : null;
  const signing = certificate(signer.publicKey, subject, ca ?? { name: subject, key: signer.privateKey }, {
    serial: ca ? '02' : '03',
    ...validity,
    extensions: [{ name: 'keyUsage', ...usage }],
  });
  const certs = ca ? [signing, ca.cert] : [signing];
  const p12 = forge.pkcs12.toPkcs12Asn1(
    options.withoutKey ? null : signer.privateKey,
    certs,
    options.passphrase ?? 'secret',
    { algorithm: 'aes256' },
  );
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

/**
 * A timestamp authority's identity for tests (test/helpers/tsa.ts): a self-signed certificate whose
 * extended key usage is timeStamping (critical, as RFC 3161 §2.3 requires), with its key as PKCS#8 DER.
 */
export function makeTsaIdentity(): { certDer: Buffer; keyPkcs8: Buffer } {
  const tsa = keyPair(2);
  const name = [{ name: 'commonName', value: 'Quire Test TSA' }];
  const cert = certificate(
    tsa.publicKey,
    name,
    { name, key: tsa.privateKey },
    {
      serial: '0a',
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + 365 * DAY),
      extensions: [
        { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
        { name: 'extKeyUsage', critical: true, timeStamping: true },
      ],
    },
  );
  const der = (asn1: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
  return {
    certDer: der(forge.pki.certificateToAsn1(cert)),
    keyPkcs8: der(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(tsa.privateKey))),
  };
}

const run = promisify(execFile);

/**
 * `file` (a PKCS#12 opened by `passphrase`) exported again by the openssl CLI with `iterations` for its MAC
 * and both encryptions: what `openssl pkcs12 -export -iter N` hands out. OpenSSL derives natively, still a
 * few seconds for 3,000,000 iterations, so make such a file once per test file.
 */
export async function exportedByOpenssl(
  file: Buffer,
  passphrase: string,
  iterations: number,
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-p12-'));
  const pass = `pass:${passphrase}`;
  try {
    await writeFile(path.join(dir, 'in.p12'), file);
    await run('openssl', ['pkcs12', '-in', 'in.p12', '-passin', pass, '-nodes', '-out', 'all.pem'], {
      cwd: dir,
    });
    const args = ['pkcs12', '-export', '-in', 'all.pem', '-passout', pass, '-iter', String(iterations)];
    const { stdout } = await run('openssl', args, { cwd: dir, encoding: 'buffer' });
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
