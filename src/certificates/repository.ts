import { countRows, type Db, ofTeam } from '../storage/index.js';
import type { CertificatesTable } from './tables.js';

export type CertificateRow = CertificatesTable;

/** The team's certificates, oldest first. */
export async function listCertificates(db: Db, teamId: string): Promise<CertificateRow[]> {
  return ofTeam(db.selectFrom('certificates').selectAll(), teamId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One of the team's certificates; another team's is not found. */
export async function findCertificate(db: Db, teamId: string, id: string): Promise<CertificateRow | null> {
  return (await ofTeam(db.selectFrom('certificates').selectAll(), teamId, id).executeTakeFirst()) ?? null;
}

export async function countCertificates(db: Db, teamId: string): Promise<number> {
  return countRows(ofTeam(db.selectFrom('certificates'), teamId));
}

export async function insertCertificate(db: Db, row: CertificateRow): Promise<void> {
  await db.insertInto('certificates').values(row).execute();
}

/** True when a row was deleted. */
export async function deleteCertificate(db: Db, teamId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('certificates')
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
