/** A file the API answered with (POST /pdf with `response: binary`, template previews), its headers read. */
export interface PdfFile {
  bytes: Uint8Array;
  contentType: string;
  /** The document record's id (empty for previews, which make none). */
  documentId: string;
  /** null for an XRechnung XML. */
  pages: number | null;
  filename: string | null;
  warnings: unknown[];
  blockedResources: number;
}

export function readPdfFile(response: Response, data: ArrayBuffer): PdfFile {
  const headers = response.headers;
  const pages = headers.get('x-pages');
  const disposition = headers.get('content-disposition') ?? '';
  return {
    bytes: new Uint8Array(data),
    contentType: headers.get('content-type') ?? 'application/octet-stream',
    documentId: headers.get('x-document-id') ?? '',
    pages: pages === null ? null : Number(pages),
    filename: /filename="([^"]*)"/.exec(disposition)?.[1] ?? null,
    warnings: JSON.parse(headers.get('x-warnings') ?? '[]') as unknown[],
    blockedResources: Number(headers.get('x-blocked-resources') ?? 0),
  };
}
