import { Type } from 'typebox';
import { Nullable, named } from '../http/schemas.js';
import type { Db } from '../storage/index.js';
import { type DocumentJson, DocumentSchema } from './present.js';
import type { DocumentsTable } from './tables.js';

/**
 * A document as the log lists it (GET /documents): the spec's Document plus two extensions the dashboard's
 * log needs at a glance, without opening each document's activity.
 */
export const ListedDocumentSchema = named(
  'ListedDocument',
  Type.Object({
    ...DocumentSchema.properties,
    warning_count: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'Extension: how many render warnings the document’s activity holds (e.g. missing variables); absent when none or when the 30-day activity is gone.',
      }),
    ),
    e_invoice: Type.Optional(
      Type.Object(
        { standard: Type.String(), profile: Nullable(Type.String()) },
        { description: 'Extension: the e-invoice standard and profile, for e-invoice documents.' },
      ),
    ),
  }),
);

export type ListedDocumentJson = DocumentJson & {
  warning_count?: number;
  e_invoice?: { standard: string; profile: string | null };
};

type Row = Pick<DocumentsTable, 'id' | 'e_invoice_json'>;

/** Adds the warning counts (one query for the page) and the e-invoice standard to a page of documents. */
export async function withListExtras(
  db: Db,
  rows: readonly Row[],
  documents: readonly DocumentJson[],
): Promise<ListedDocumentJson[]> {
  const counts = await warningCounts(
    db,
    rows.map((row) => row.id),
  );
  return documents.map((doc, i) => {
    const count = counts.get(doc.id) ?? 0;
    const eInvoice = eInvoiceOf(rows[i]?.e_invoice_json ?? null);
    return {
      ...doc,
      ...(count > 0 ? { warning_count: count } : {}),
      ...(eInvoice ? { e_invoice: eInvoice } : {}),
    };
  });
}

async function warningCounts(db: Db, ids: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const entries = await db
    .selectFrom('document_activity')
    .select(['document_id', 'details_json'])
    .where('document_id', 'in', [...ids])
    .where('details_json', 'is not', null)
    .execute();
  for (const entry of entries) {
    const warnings = readWarnings(entry.details_json);
    if (warnings > 0) counts.set(entry.document_id, Math.max(counts.get(entry.document_id) ?? 0, warnings));
  }
  return counts;
}

function readWarnings(json: string | null): number {
  try {
    const details = JSON.parse(json ?? 'null') as { warnings?: unknown };
    return Array.isArray(details?.warnings) ? details.warnings.length : 0;
  } catch {
    return 0;
  }
}

function eInvoiceOf(json: string | null): { standard: string; profile: string | null } | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as { standard?: unknown; profile?: unknown };
    if (typeof value.standard !== 'string') return null;
    return { standard: value.standard, profile: typeof value.profile === 'string' ? value.profile : null };
  } catch {
    return null;
  }
}
