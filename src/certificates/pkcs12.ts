import { createHash } from 'node:crypto';
import forge from 'node-forge';
import { AppError } from '../shared/errors.js';
import { assertIterationsBounded } from './pkcs12-iterations.js';

/** What a certificate says about itself (the API's view; never the key). */
export interface CertificateFacts {
  subject: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
  /** SHA-256 of the signing certificate's DER, lowercase hex. */
  fingerprintSha256: string;
  /** The signing certificate's common name (else its subject): the signature's /Name. */
  signerName: string;
}

/** A PKCS#12 file read and checked: the facts, the key (PKCS#8 DER) and the chain (DER, signing cert first). */
export interface ReadPkcs12 extends CertificateFacts {
  keyPkcs8: Uint8Array;
  chain: Uint8Array[];
}

/** The request fields a refusal names (POST /v1/certificates). */
const FILE_FIELD = 'pkcs12_base64';
const PASSPHRASE_FIELD = 'passphrase';

function refuse(field: string, message: string, reason: string): AppError {
  return new AppError('invalid_request', message, { field, reason });
}

/** The ASN.1 of a PKCS#12 file, strictly parsed; anything else is a damaged file. */
function parseDer(bytes: Uint8Array): forge.asn1.Asn1 {
  try {
    return forge.asn1.fromDer(forge.util.binary.raw.encode(bytes), true);
  } catch {
    throw refuse(
      FILE_FIELD,
      'The file is not a PKCS#12 (.p12/.pfx) file or it is damaged: export the certificate with its private key again.',
      'damaged',
    );
  }
}

/**
 * forge's PKCS#12 reader throws plain errors; their wording tells a wrong passphrase (the MAC or the key
 * bag does not decrypt) from a key type it cannot read and from a damaged file.
 */
function openPfx(asn1: forge.asn1.Asn1, passphrase: string): forge.pkcs12.Pkcs12Pfx {
  try {
    return forge.pkcs12.pkcs12FromAsn1(asn1, true, passphrase);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/password|MAC could not be verified/i.test(message))
      throw refuse(
        PASSPHRASE_FIELD,
        'The passphrase does not open this PKCS#12 file: check it.',
        'passphrase',
      );
    if (/RSAPrivateKey|private key/i.test(message))
      throw refuse(
        FILE_FIELD,
        'The private key is not an RSA key: Quire signs with RSA keys (2048 bits or more).',
        'key_type',
      );
    throw refuse(
      FILE_FIELD,
      `The PKCS#12 file is damaged or uses an unsupported format (${message.slice(0, 120)}): export it again.`,
      'damaged',
    );
  }
}

function bagsOf(pfx: forge.pkcs12.Pkcs12Pfx, type: string): forge.pkcs12.Bag[] {
  return pfx.getBags({ bagType: type })[type] ?? [];
}

/** The one private key in the file; a PKCS#12 without one (a certificate export) cannot sign. */
function privateKeyOf(pfx: forge.pkcs12.Pkcs12Pfx): forge.pki.rsa.PrivateKey {
  const keys = [
    ...bagsOf(pfx, forge.pki.oids.pkcs8ShroudedKeyBag ?? ''),
    ...bagsOf(pfx, forge.pki.oids.keyBag ?? ''),
  ].flatMap((bag) => (bag.key ? [bag.key as forge.pki.rsa.PrivateKey] : []));
  const [key] = keys;
  if (!key)
    throw refuse(
      FILE_FIELD,
      'The PKCS#12 file holds no private key: export the certificate together with its private key.',
      'no_key',
    );
  if (keys.length > 1)
    throw refuse(
      FILE_FIELD,
      'The PKCS#12 file holds more than one private key: export only one.',
      'many_keys',
    );
  if (key.n.bitLength() < 2048)
    throw refuse(FILE_FIELD, 'The RSA key is shorter than 2048 bits: use a stronger key.', 'key_size');
  return key;
}

/** The signing certificate first (the one of the key), then each issuer found in the file, then the rest. */
function orderChain(certs: forge.pki.Certificate[], key: forge.pki.rsa.PrivateKey): forge.pki.Certificate[] {
  const signing = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.equals(key.n) === true && pub.e.equals(key.e);
  });
  if (!signing)
    throw refuse(
      FILE_FIELD,
      'The PKCS#12 file holds no certificate for its private key: export the certificate with its key.',
      'no_certificate',
    );
  const chain = [signing];
  const rest = certs.filter((c) => c !== signing);
  for (let current = signing; ; ) {
    const issuer = rest.find((c) => !chain.includes(c) && c.subject.hash === current.issuer.hash);
    if (!issuer || issuer === current) break;
    chain.push(issuer);
    current = issuer;
  }
  return [...chain, ...rest.filter((c) => !chain.includes(c))];
}

/** `CN=Ada, O=Example` from a certificate's name. */
function nameText(name: forge.pki.Certificate['subject']): string {
  return name.attributes.map((a) => `${a.shortName ?? a.name ?? a.type}=${String(a.value)}`).join(', ');
}

/** Validity and key usage at upload: a certificate that cannot make a valid signature now is refused. */
function checkUsable(cert: forge.pki.Certificate, now: Date): void {
  const { notBefore, notAfter } = cert.validity;
  if (now < notBefore)
    throw refuse(
      FILE_FIELD,
      `The certificate is not valid yet (valid from ${notBefore.toISOString()}): upload it once it is.`,
      'not_yet_valid',
    );
  if (now > notAfter)
    throw refuse(
      FILE_FIELD,
      `The certificate expired on ${notAfter.toISOString()}: upload a current one.`,
      'expired',
    );
  const usage = cert.getExtension('keyUsage') as {
    digitalSignature?: boolean;
    nonRepudiation?: boolean;
  } | null;
  if (usage && !usage.digitalSignature && !usage.nonRepudiation)
    throw refuse(
      FILE_FIELD,
      'The certificate’s key usage does not allow signing (neither digitalSignature nor nonRepudiation): use a signing certificate.',
      'key_usage',
    );
}

function derOf(cert: forge.pki.Certificate): Uint8Array {
  return forge.util.binary.raw.decode(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes());
}

/**
 * Reads an uploaded PKCS#12 file (untrusted bytes: run on the untrusted-file pool, src/untrusted).
 * Every refusal is `invalid_request` naming `pkcs12_base64` or `passphrase` with `details.reason`. The
 * file's key-derivation iteration counts are checked before anything is derived (pkcs12-iterations.ts).
 */
export function readPkcs12(bytes: Uint8Array, passphrase: string, now: Date): ReadPkcs12 {
  const asn1 = parseDer(bytes);
  assertIterationsBounded(asn1, passphrase);
  const pfx = openPfx(asn1, passphrase);
  const key = privateKeyOf(pfx);
  const certs = bagsOf(pfx, forge.pki.oids.certBag ?? '').flatMap((bag) => (bag.cert ? [bag.cert] : []));
  const chain = orderChain(certs, key);
  const signing = chain[0] as forge.pki.Certificate;
  checkUsable(signing, now);
  const der = chain.map(derOf);
  const commonName = signing.subject.getField('CN') as { value?: unknown } | null;
  const pkcs8 = forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key));
  return {
    subject: nameText(signing.subject),
    signerName: typeof commonName?.value === 'string' ? commonName.value : nameText(signing.subject),
    issuer: nameText(signing.issuer),
    notBefore: signing.validity.notBefore.toISOString(),
    notAfter: signing.validity.notAfter.toISOString(),
    fingerprintSha256: createHash('sha256')
      .update(der[0] as Uint8Array)
      .digest('hex'),
    keyPkcs8: forge.util.binary.raw.decode(forge.asn1.toDer(pkcs8).getBytes()),
    chain: der,
  };
}
