import { type Static, Type } from 'typebox';
import { AccessibilityReportSchema } from '../finishing/index.js';
import { DateTime, Nullable, named } from '../http/schemas.js';
import type { DocumentRow } from './repository.js';
import type { LinkSigner } from './signed-links.js';
import { documentStatusSchema } from './states.js';

export const DocumentSchema = named(
  'Document',
  Type.Object({
    id: Type.String(),
    status: documentStatusSchema(),
    pages: Nullable(Type.Integer()),
    bytes: Nullable(Type.Integer()),
    mode: Nullable(Type.Union([Type.Literal('fast'), Type.Literal('print')])),
    test: Type.Boolean(),
    template_id: Nullable(Type.String()),
    template_version: Nullable(Type.Integer()),
    error_code: Nullable(Type.String()),
    error_message: Type.Optional(Type.String()),
    created_at: DateTime,
    expires_at: Nullable(DateTime),
    url: Nullable(Type.String()),
    thumbnail_url: Type.Optional(Nullable(Type.String())),
    delivery: Nullable(Type.Record(Type.String(), Type.Unknown())),
    signed: Type.Optional(
      Type.Literal(true, {
        description: 'Extension: present (true) when the file carries a PAdES signature (`sign`).',
      }),
    ),
    accessibility: Type.Optional(AccessibilityReportSchema),
  }),
);

export interface DocumentJson {
  id: string;
  status: DocumentRow['status'];
  pages: number | null;
  bytes: number | null;
  mode: 'fast' | 'print' | null;
  test: boolean;
  template_id: string | null;
  template_version: number | null;
  error_code: string | null;
  error_message?: string;
  created_at: string;
  expires_at: string | null;
  url: string | null;
  thumbnail_url?: string | null;
  delivery: Record<string, unknown> | null;
  signed?: true;
  accessibility?: Static<typeof AccessibilityReportSchema>;
}

/** Whether the stored file still exists for download at `nowMs`. */
export function isStored(row: DocumentRow, nowMs: number): boolean {
  return row.blob_key !== null && row.expires_at !== null && Date.parse(row.expires_at) > nowMs;
}

/** The spec's Document object, with fresh signed links while the file is stored. */
export function presentDocument(
  row: DocumentRow,
  links: { signer: LinkSigner; publicUrl: string; nowMs: number },
): DocumentJson {
  const stored = isStored(row, links.nowMs);
  const expires = row.expires_at ? new Date(row.expires_at) : null;
  const json: DocumentJson = {
    id: row.id,
    status: row.status,
    pages: row.pages,
    bytes: row.bytes,
    mode: row.mode,
    test: row.test === 1,
    template_id: row.template_id,
    template_version: row.template_version,
    error_code: row.error_code,
    ...(row.error_message === null ? {} : { error_message: row.error_message }),
    created_at: row.created_at,
    expires_at: row.expires_at,
    url:
      stored && expires
        ? `${links.publicUrl}/v1/files/${row.id}${links.signer.query(`file:${row.id}`, expires)}`
        : null,
    delivery: row.delivery_json ? (JSON.parse(row.delivery_json) as Record<string, unknown>) : null,
    ...(row.signed === 1 ? { signed: true as const } : {}),
    ...(row.accessibility_json
      ? { accessibility: JSON.parse(row.accessibility_json) as Static<typeof AccessibilityReportSchema> }
      : {}),
  };
  if (row.status !== 'queued') {
    const thumbable = stored && expires && row.content_type === 'application/pdf';
    json.thumbnail_url = thumbable
      ? `${links.publicUrl}/v1/thumbnails/documents/${row.id}.png${links.signer.query(`thumb:${row.id}`, expires)}`
      : null;
  }
  return json;
}
