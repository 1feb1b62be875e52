import { AppError } from '../../shared/errors.js';
import type { AttachmentOption } from '../schema.js';
import type { FinishingStep, PlanInput } from '../step.js';
import { pdfALevelOf } from './pdf-a.js';

/** One file to embed, decoded. */
export interface PlannedAttachment {
  filename: string;
  bytes: Uint8Array;
  mimeType: string;
  description?: string;
  relationship: NonNullable<AttachmentOption['relationship']>;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeAttachment(a: AttachmentOption, index: number): PlannedAttachment {
  const text = a.content_base64.replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 === 1)
    throw new AppError('invalid_request', `"attachments[${index}].content_base64" is not base64.`, {
      field: `attachments/${index}/content_base64`,
    });
  return {
    filename: a.filename,
    bytes: new Uint8Array(Buffer.from(text, 'base64')),
    mimeType: a.mime_type,
    ...(a.description === undefined ? {} : { description: a.description }),
    relationship: a.relationship ?? 'Unspecified',
  };
}

function planAttachments(input: PlanInput): PlannedAttachment[] | null {
  const { options, contribution } = input;
  const attachments = [
    ...(contribution?.attachments ?? []),
    ...(options.attachments ?? []).map(decodeAttachment),
  ];
  const level = pdfALevelOf(input);
  if (options.attachments?.length && level && !level.startsWith('3'))
    throw new AppError(
      'invalid_request',
      `PDF/A-${level} cannot embed arbitrary files: use "pdf_a": "3${level.slice(1)}" with "attachments".`,
      { field: 'attachments' },
    );
  const names = new Set<string>();
  for (const [i, a] of attachments.entries()) {
    if (names.has(a.filename))
      throw new AppError(
        'invalid_request',
        `Two attachments are named "${a.filename}": give each its own name.`,
        {
          field: `attachments/${i}/filename`,
        },
      );
    names.add(a.filename);
  }
  return attachments.length > 0 ? attachments : null;
}

/** `attachments` (and an e-invoice's XML): embedded files with their AFRelationship in the catalog /AF. */
export const attachments: FinishingStep<'attachments', PlannedAttachment[]> = {
  key: 'attachments',
  fields: ['attachments'],
  plan: planAttachments,
  document: async (doc, files, context) => {
    const { attachFiles } = await import('../document-info.js');
    await attachFiles(doc, files, context.createdAt);
  },
};
