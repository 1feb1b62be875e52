import forge from 'node-forge';
import { AppError } from '../shared/errors.js';

/**
 * The most iterations one key derivation of an uploaded PKCS#12 may ask for (its MAC, the encryption of
 * its certificates, of its private key). Export tools use 2,000 to 10,000 (OpenSSL 2,048, Windows 2,000,
 * Java 10,000; pyca/cryptography 20,000), so this accepts any of them with room to spare. node-forge derives
 * in JavaScript, 5 to 20 µs an iteration on a loaded two-core machine (SHA-256 to SHA-512): at this bound a
 * derivation costs a worker 2 s at most, where a file asking for 3,000,000 held one for the whole 10 s limit.
 */
export const MAX_PKCS12_ITERATIONS = 100_000;

/**
 * The most iterations reading one file may derive in all: a MAC, a private key and encrypted certificates at
 * MAX_PKCS12_ITERATIONS each, the certificates' key derived twice (once here to look for a key inside them).
 * Bounding the file, not only each count, matters because a 256 KB file may hold thousands of encrypted
 * parts.
 */
export const MAX_PKCS12_TOTAL_ITERATIONS = 4 * MAX_PKCS12_ITERATIONS;

const FILE_FIELD = 'pkcs12_base64';
const REEXPORT =
  'Export it again with a usual count, e.g. `openssl pkcs12 -export -iter 2048 -in cert.pem -inkey key.pem -out signing.p12` (most tools use 2,000 to 10,000).';

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  pkcs8ShroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
} as const;

/** The parts of a PKCS#12 file a key is derived for, as refusals name them. */
type Part = 'mac' | 'certificates' | 'private_key';

const PART_TEXT: Record<Part, string> = {
  mac: 'integrity check (MAC)',
  certificates: 'encrypted certificates',
  private_key: 'encrypted private key',
};

type Node = forge.asn1.Asn1;

/** An encrypted part of the file (PKCS#7 EncryptedData): how its key is derived, and its bytes. */
interface EncryptedPart {
  algorithm: Node;
  bytes: string;
}

/**
 * node-forge's cipher lookup for password-based encryption (not in @types/node-forge): the one
 * pkcs12FromAsn1 decrypts each part with, so this sees inside exactly what forge will.
 */
interface PbeCiphers {
  getCipher(oid: string, params: Node, password: string): forge.cipher.BlockCipher;
}
const pbe = (forge.pki as unknown as { pbe: PbeCiphers }).pbe;

/** Sums the iterations a file's derivations ask for, refusing a count or a sum past the bounds. */
class IterationBudget {
  #spent = 0;

  /** One derivation of `count` iterations for `part`, done `times` times while reading. */
  spend(count: number, part: Part, times = 1): void {
    if (count > MAX_PKCS12_ITERATIONS)
      throw iterationRefusal(
        `The PKCS#12 file's ${PART_TEXT[part]} asks for ${countText(count)} key-derivation iterations; Quire accepts at most ${countText(MAX_PKCS12_ITERATIONS)}. ${REEXPORT}`,
        { limit: 'pkcs12_iterations', max: MAX_PKCS12_ITERATIONS, part },
      );
    this.#spent += count * times;
    if (this.#spent > MAX_PKCS12_TOTAL_ITERATIONS)
      throw iterationRefusal(
        `Reading the PKCS#12 file would take more than ${countText(MAX_PKCS12_TOTAL_ITERATIONS)} key-derivation iterations in all (its MAC, key and encrypted parts); Quire accepts at most that. ${REEXPORT}`,
        { limit: 'pkcs12_total_iterations', max: MAX_PKCS12_TOTAL_ITERATIONS, part },
      );
  }
}

function iterationRefusal(message: string, details: Record<string, unknown>): AppError {
  return new AppError('invalid_request', message, { field: FILE_FIELD, reason: 'iterations', ...details });
}

function countText(count: number): string {
  return Number.isFinite(count) ? count.toLocaleString('en-US') : 'an out-of-range number of';
}

/**
 * Refuses a PKCS#12 file (the ASN.1 of its PFX) whose key derivations would cost more than the bounds
 * above, before node-forge derives anything: the counts of the MAC, of each encrypted part and of each
 * private key stored in the clear part are read from the ASN.1 first. A private key inside an encrypted
 * part can only be seen by decrypting that part, whose own count has passed by then. What is not shaped as
 * expected is left alone: forge refuses it without deriving more than what was counted.
 */
export function assertIterationsBounded(pfx: Node, passphrase: string): void {
  const budget = new IterationBudget();
  const [, authSafe, macData] = children(pfx);
  if (macData) budget.spend(integerOf(children(macData)[2]) ?? 1, 'mac');
  const encrypted: EncryptedPart[] = [];
  for (const contentInfo of children(parsedOctets(contentOf(authSafe)))) {
    const part = encryptedPartOf(contentInfo);
    if (part) {
      encrypted.push(part);
      spendOn(budget, part.algorithm, 'certificates', 2);
    } else {
      spendOnKeys(budget, safeBagsOf(contentInfo));
    }
  }
  for (const part of encrypted) spendOnKeys(budget, children(parsedOctets(decrypt(part, passphrase))));
}

function spendOn(budget: IterationBudget, algorithm: Node, part: Part, times = 1): void {
  const count = iterationsOf(algorithm);
  if (count !== undefined) budget.spend(count, part, times);
}

/** The shrouded private keys among `bags` (each is a SafeBag: bagId, [0] bagValue, attributes). */
function spendOnKeys(budget: IterationBudget, bags: Node[]): void {
  for (const bag of bags) {
    const [bagId, value] = children(bag);
    if (oidOf(bagId) !== OID.pkcs8ShroudedKeyBag) continue;
    const [encryptedKeyInfo] = children(value);
    const [algorithm] = children(encryptedKeyInfo);
    if (algorithm) spendOn(budget, algorithm, 'private_key');
  }
}

/** The SafeBags of a ContentInfo of type data (the part of the file stored in the clear). */
function safeBagsOf(contentInfo: Node): Node[] {
  const [type] = children(contentInfo);
  return oidOf(type) === OID.data ? children(parsedOctets(contentOf(contentInfo))) : [];
}

/**
 * A ContentInfo of type encryptedData:
 * EncryptedData { version, EncryptedContentInfo { type, algorithm, [0] IMPLICIT bytes } }.
 */
function encryptedPartOf(contentInfo: Node): EncryptedPart | undefined {
  const [type] = children(contentInfo);
  if (oidOf(type) !== OID.encryptedData) return undefined;
  const [, info] = children(contentOf(contentInfo));
  const [, algorithm, content] = children(info);
  const bytes = octets(content);
  return algorithm && bytes !== undefined ? { algorithm, bytes } : undefined;
}

/** The iteration count of a password-based encryption: PBES2 with PBKDF2, or PKCS#12 / PKCS#5 v1 PBE. */
function iterationsOf(algorithm: Node): number | undefined {
  const [oid, params] = children(algorithm);
  if (oidOf(oid) !== OID.pbes2) return integerOf(children(params)[1]);
  const [kdf] = children(params);
  const [kdfOid, kdfParams] = children(kdf);
  return oidOf(kdfOid) === OID.pbkdf2 ? integerOf(children(kdfParams)[1]) : undefined;
}

/** An encrypted part decrypted as forge will (its count already counted); undefined when it does not open. */
function decrypt(part: EncryptedPart, passphrase: string): string | undefined {
  const [oid, params] = children(part.algorithm);
  const name = oidOf(oid);
  if (!name || !params) return undefined;
  try {
    const cipher = pbe.getCipher(name, params, passphrase);
    cipher.update(forge.util.createBuffer(part.bytes));
    return cipher.finish() ? cipher.output.getBytes() : undefined;
  } catch {
    // A wrong passphrase or an unsupported cipher: forge stops at the same place, deriving nothing further.
    return undefined;
  }
}

/** The [0] EXPLICIT content of a ContentInfo. */
function contentOf(contentInfo: Node | undefined): Node | undefined {
  return children(children(contentInfo)[1])[0];
}

function children(node: Node | undefined): Node[] {
  return node && Array.isArray(node.value) ? node.value : [];
}

function oidOf(node: Node | undefined): string | undefined {
  if (node?.tagClass !== forge.asn1.Class.UNIVERSAL || node.type !== forge.asn1.Type.OID) return undefined;
  return typeof node.value === 'string' ? forge.asn1.derToOid(node.value) : undefined;
}

/** An INTEGER's value; a negative or very large one (no real count) as Infinity, so that it is refused. */
function integerOf(node: Node | undefined): number | undefined {
  if (node?.tagClass !== forge.asn1.Class.UNIVERSAL || node.type !== forge.asn1.Type.INTEGER)
    return undefined;
  if (typeof node.value !== 'string' || node.value.length === 0) return undefined;
  const bytes = node.value;
  if (bytes.length > 6 || bytes.charCodeAt(0) & 0x80) return Number.POSITIVE_INFINITY;
  let value = 0;
  for (let i = 0; i < bytes.length; i++) value = value * 256 + bytes.charCodeAt(i);
  return value;
}

/** An OCTET STRING's (or an implicitly tagged one's) bytes, in one piece or (BER) in chunks. */
function octets(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  if (typeof node.value === 'string') return node.value;
  const chunks = node.value.map(octets);
  return chunks.every((chunk) => chunk !== undefined) ? chunks.join('') : undefined;
}

/** The ASN.1 in an OCTET STRING (or in decrypted bytes), parsed as forge will; undefined if it is not. */
function parsedOctets(source: Node | string | undefined): Node | undefined {
  const bytes = typeof source === 'string' || source === undefined ? source : octets(source);
  if (!bytes) return undefined;
  try {
    return forge.asn1.fromDer(bytes, true);
  } catch {
    return undefined;
  }
}
