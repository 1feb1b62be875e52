import { randomUUID } from 'node:crypto';
import type { NewDocument } from '../../../src/documents/lifecycle.js';

/**
 * A new document as a plain HTML render writes it (fast mode, a PDF): no template, metadata, e-invoice, batch
 * or delivery unless `fields` give them. The store's tests vary only the fields they are about.
 */
export function newPlainDocument(
  fields: Pick<NewDocument, 'teamId' | 'test' | 'createdAt' | 'filename'> & Partial<NewDocument>,
): NewDocument {
  return {
    id: randomUUID(),
    contentType: 'application/pdf',
    templateId: null,
    templateVersion: null,
    mode: 'fast',
    metadata: null,
    eInvoice: null,
    batchId: null,
    delivery: null,
    ...fields,
  };
}
