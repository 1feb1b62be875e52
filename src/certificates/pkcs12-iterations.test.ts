import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import forge from 'node-forge';
import { isAppError } from '../shared/errors.js';
import { readPkcs12 } from './pkcs12.js';
import {
  assertIterationsBounded,
  MAX_PKCS12_ITERATIONS,
  MAX_PKCS12_TOTAL_ITERATIONS,
} from './pkcs12-iterations.js';

/**
 * PKCS#12 files put together from their ASN.1 parts, with iteration counts declared but never derived: what
 * is refused must be refused before forge derives anything, so the files need no real key for their counts.
 */
type Node = forge.asn1.Asn1;
const { asn1 } = forge;
const U = asn1.Class.UNIVERSAL;
const PASSPHRASE = 'secret';
const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  sha256: '2.16.840.1.101.3.4.2.1',
};

const seq = (...items: Node[]) => asn1.create(U, asn1.Type.SEQUENCE, true, items);
const oid = (value: string) => asn1.create(U, asn1.Type.OID, false, asn1.oidToDer(value).getBytes());
const integer = (value: number) =>
  asn1.create(U, asn1.Type.INTEGER, false, asn1.integerToDer(value).getBytes());
const octets = (bytes: string) => asn1.create(U, asn1.Type.OCTETSTRING, false, bytes);
const explicit0 = (inner: Node) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [inner]);
const der = (node: Node) => asn1.toDer(node).getBytes();
const at = (node: Node, ...path: number[]): Node =>
  path.reduce((n, i) => (n.value as Node[])[i] as Node, node);

// A small key: the counts are what is tested, and RSA key generation is the slow part.
const key = forge.pki.rsa.generateKeyPair({ bits: 512, e: 0x10001 }).privateKey;

/** `bytes` encrypted with PBES2 (AES-256, one iteration): [AlgorithmIdentifier, OCTET STRING]. */
function encrypted(content: Node): Node {
  return forge.pki.encryptPrivateKeyInfo(content, PASSPHRASE, { algorithm: 'aes256', count: 1 });
}

/** Sets the PBKDF2 iteration count a PBES2 AlgorithmIdentifier declares. */
function declare(algorithm: Node, count: Node): void {
  (at(algorithm, 1, 0, 1).value as Node[])[1] = count;
}

/** A SafeBag with the private key, encrypted with one iteration but declaring `count`. */
function shroudedKeyBag(count: Node): Node {
  const info = encrypted(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key)));
  declare(at(info, 0), count);
  return seq(oid(OID.shroudedKeyBag), explicit0(info));
}

/** A ContentInfo holding `bags` in the clear. */
function dataPart(...bags: Node[]): Node {
  return seq(oid(OID.data), explicit0(octets(der(seq(...bags)))));
}

/** A ContentInfo holding `bags` encrypted (one iteration), declaring `count` when given. */
function encryptedPart(bags: Node[], count?: Node): Node {
  const [algorithm, content] = encrypted(seq(...bags)).value as [Node, Node];
  if (count) declare(algorithm, count);
  const encryptedContent = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, content.value);
  return seq(
    oid(OID.encryptedData),
    explicit0(seq(integer(0), seq(oid(OID.data), algorithm, encryptedContent))),
  );
}

/** A PFX of `parts`, with a MAC declaring `macCount` when given (its digest is not real). */
function pfx(parts: Node[], macCount?: Node): Node {
  const authSafe = seq(oid(OID.data), explicit0(octets(der(seq(...parts)))));
  const digest = seq(seq(oid(OID.sha256)), octets('\0'.repeat(32)));
  const mac = macCount ? [seq(digest, octets('saltsalt'), macCount)] : [];
  return seq(integer(3), authSafe, ...mac);
}

/** The refusal the check throws for `file`, or undefined when it passes. */
function refusalOf(file: Node): { message: string; details: Record<string, unknown> } | undefined {
  try {
    assertIterationsBounded(file, PASSPHRASE);
    return undefined;
  } catch (err) {
    assert.ok(isAppError(err), String(err));
    assert.equal(err.code, 'invalid_request');
    return { message: err.message, details: err.details ?? {} };
  }
}

const OVER = integer(MAX_PKCS12_ITERATIONS + 1);

describe('PKCS#12 iteration counts, read from the ASN.1 before anything is derived', () => {
  it('accepts usual counts: a MAC, a clear key and encrypted parts at 2,048', () => {
    const usual = integer(2048);
    assert.equal(
      refusalOf(pfx([dataPart(shroudedKeyBag(usual)), encryptedPart([], usual)], usual)),
      undefined,
    );
  });

  it('refuses a MAC count past the bound, naming the file field, the limit and how to export again', () => {
    const refused = refusalOf(pfx([dataPart(shroudedKeyBag(integer(2048)))], integer(3_000_000)));
    assert.deepEqual(refused?.details, {
      field: 'pkcs12_base64',
      reason: 'iterations',
      limit: 'pkcs12_iterations',
      max: MAX_PKCS12_ITERATIONS,
      part: 'mac',
    });
    assert.match(
      refused?.message ?? '',
      /MAC\) asks for 3,000,000 .* at most 100,000\. .*openssl pkcs12 -export -iter 2048/,
    );
  });

  it('refuses a key or an encrypted part past the bound, and an INTEGER too large to be a count', () => {
    assert.equal(refusalOf(pfx([dataPart(shroudedKeyBag(OVER))]))?.details.part, 'private_key');
    assert.equal(refusalOf(pfx([encryptedPart([], OVER)]))?.details.part, 'certificates');
    const huge = asn1.create(U, asn1.Type.INTEGER, false, `\x01${'\0'.repeat(8)}`);
    assert.match(refusalOf(pfx([], huge))?.message ?? '', /asks for an out-of-range number of/);
  });

  it('refuses many parts each within the bound whose sum is past the file’s', () => {
    const count = integer(MAX_PKCS12_ITERATIONS / 2);
    const parts = Array.from({ length: 5 }, () => encryptedPart([], count));
    const refused = refusalOf(pfx(parts));
    assert.equal(refused?.details.limit, 'pkcs12_total_iterations');
    assert.equal(refused?.details.max, MAX_PKCS12_TOTAL_ITERATIONS);
  });

  it('looks inside an encrypted part: a key hidden there with 3,000,000 iterations is refused before forge derives it', () => {
    const file = pfx([encryptedPart([shroudedKeyBag(integer(3_000_000))])]);
    const started = performance.now();
    assert.throws(
      () => readPkcs12(Buffer.from(der(file), 'binary'), PASSPHRASE, new Date()),
      (err: unknown) => isAppError(err) && err.details?.part === 'private_key',
    );
    // forge derives about 100,000 iterations a second here: 3,000,000 would take half a minute.
    assert.ok(performance.now() - started < 1000, `${(performance.now() - started).toFixed(0)} ms`);
  });
});
