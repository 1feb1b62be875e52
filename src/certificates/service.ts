import type { AuthContext } from '../accounts/index.js';
import type { SigningKey } from '../finishing/index.js';
import { decodeBase64 } from '../shared/base64.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Db } from '../storage/index.js';
import type { ReadPkcs12 } from './pkcs12.js';
import {
  type CertificateRow,
  countCertificates,
  deleteCertificate,
  findCertificate,
  insertCertificate,
} from './repository.js';

/** At most this many certificates per team (README "Certificates and signatures"). */
export const MAX_CERTIFICATES = 10;
/** A PKCS#12 with a key and a chain is a few KB; this leaves room for long chains. */
export const MAX_PKCS12_BYTES = 256 * 1024;

/**
 * Reads a PKCS#12 file off the main thread on a budget, in the uploading team's share of the untrusted-file
 * pool.
 */
export interface CertificateReader {
  certificate(
    team: string,
    bytes: Uint8Array,
    passphrase: string,
    field: string,
    now: Date,
  ): Promise<ReadPkcs12>;
}

/** Encryption of private keys at rest with a key derived from the server secret (webhooks' SecretBox). */
export interface KeyBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export interface CertificateServiceDeps {
  db: Db;
  clock: Clock;
  box: KeyBox;
  reader: CertificateReader;
}

export interface UploadCertificateBody {
  name: string;
  pkcs12_base64: string;
  passphrase: string;
}

function pkcs12Bytes(text: string): Buffer {
  const bytes = decodeBase64(text, 'pkcs12_base64');
  if (bytes.length > MAX_PKCS12_BYTES)
    throw new AppError(
      'invalid_request',
      `The PKCS#12 file is ${bytes.length} bytes; at most ${MAX_PKCS12_BYTES} are accepted.`,
      { field: 'pkcs12_base64', limit: 'pkcs12_bytes', max: MAX_PKCS12_BYTES },
    );
  return bytes;
}

function tooMany(): AppError {
  return new AppError(
    'plan_limit_reached',
    `A team keeps at most ${MAX_CERTIFICATES} certificates; delete one first.`,
    { limit: 'certificates', max: MAX_CERTIFICATES },
  );
}

/**
 * Reads and checks the file (worker), then stores it: the private key sealed, the passphrase nowhere.
 * The count is checked before the file is read (a full team is told at once) and again in the insert's
 * transaction (two uploads at once cannot pass 10).
 */
export async function uploadCertificate(
  deps: CertificateServiceDeps,
  auth: AuthContext,
  body: UploadCertificateBody,
): Promise<CertificateRow> {
  const teamId = auth.team.id;
  if ((await countCertificates(deps.db, teamId)) >= MAX_CERTIFICATES) throw tooMany();
  const bytes = pkcs12Bytes(body.pkcs12_base64);
  const read = await deps.reader.certificate(
    teamId,
    bytes,
    body.passphrase,
    'pkcs12_base64',
    deps.clock.now(),
  );
  const row: CertificateRow = {
    id: newId(),
    team_id: teamId,
    name: body.name.trim() || read.subject,
    subject: read.subject,
    issuer: read.issuer,
    not_before: read.notBefore,
    not_after: read.notAfter,
    fingerprint_sha256: read.fingerprintSha256,
    signer_name: read.signerName,
    key_sealed: deps.box.seal(Buffer.from(read.keyPkcs8).toString('base64')),
    chain_json: JSON.stringify(read.chain.map((der) => Buffer.from(der).toString('base64'))),
    created_at: deps.clock.now().toISOString(),
  };
  await deps.db.transaction().execute(async (trx) => {
    if ((await countCertificates(trx, teamId)) >= MAX_CERTIFICATES) throw tooMany();
    await insertCertificate(trx, row);
  });
  return row;
}

export async function removeCertificate(
  deps: CertificateServiceDeps,
  teamId: string,
  id: string,
): Promise<void> {
  if (!(await deleteCertificate(deps.db, teamId, id)))
    throw new AppError('not_found', `No certificate ${id} in this team.`);
}

function refuseCertificate(message: string): AppError {
  return new AppError('invalid_request', message, { field: 'sign.certificate_id' });
}

/**
 * The key and chain of one of the team's certificates, opened for one signature. Unknown ids and other
 * teams' certificates read alike; one that expired since its upload is refused rather than making a
 * signature every reader shows as invalid.
 */
export async function openSigningKey(
  deps: Pick<CertificateServiceDeps, 'db' | 'box'> & { timestampUrl?: string },
  teamId: string,
  id: string,
  at: Date,
): Promise<SigningKey> {
  const row = await findCertificate(deps.db, teamId, id);
  if (!row)
    throw refuseCertificate(
      `"sign.certificate_id": no certificate ${id} in this team. GET /v1/certificates lists them.`,
    );
  if (Date.parse(row.not_after) < at.getTime())
    throw refuseCertificate(
      `The certificate "${row.name}" expired on ${row.not_after}: upload a current one and sign with it.`,
    );
  if (Date.parse(row.not_before) > at.getTime())
    throw refuseCertificate(`The certificate "${row.name}" is not valid before ${row.not_before}.`);
  return {
    keyPkcs8: Buffer.from(deps.box.open(row.key_sealed), 'base64'),
    chain: (JSON.parse(row.chain_json) as string[]).map((b64) => Buffer.from(b64, 'base64')),
    signerName: row.signer_name,
    ...(deps.timestampUrl ? { timestampUrl: deps.timestampUrl } : {}),
  };
}
