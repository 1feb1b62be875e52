import { newEventId } from '../shared/ids.js';

/** Event types (spec: Events). */
export const EVENT_TYPES = ['pdf.created', 'pdf.failed', 'batch.completed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The event envelope (spec: Event envelope). The id is made once per event, so every endpoint and every
 * re-send carries the same one; `test_event` appears only on events of the test-event operation.
 */
export interface EventEnvelope {
  id: string;
  type: EventType;
  created_at: string;
  livemode: boolean;
  test_event?: true;
  data: Record<string, unknown>;
}

export function buildEnvelope(input: {
  type: EventType;
  createdAt: Date;
  livemode: boolean;
  data: Record<string, unknown>;
  testEvent?: boolean;
  id?: string;
}): EventEnvelope {
  const envelope: EventEnvelope = {
    id: input.id ?? newEventId(),
    type: input.type,
    created_at: input.createdAt.toISOString(),
    livemode: input.livemode,
    data: input.data,
  };
  if (input.testEvent) envelope.test_event = true;
  return envelope;
}

/** The Document fields an event carries; the documents capability's presented Document fits. */
export interface EventDocument {
  id: string;
  status: string;
  [field: string]: unknown;
}

/** What pdf.created / pdf.failed carry beside the Document. */
export interface PdfEventExtra {
  filename: string;
  metadata: Record<string, unknown> | null;
  batchId: string | null;
  /** The url-response extras (spec: Document, extra fields of the url JSON and of event data). */
  warnings?: readonly unknown[];
  blockedResources?: readonly string[];
  eInvoice?: object | null;
  /** Only for a background PDF that failed before rendering. */
  errorMessage?: string;
}

/**
 * `data` of pdf.created / pdf.failed: the Document plus `filename`, `metadata`, `batch_id`
 * (spec: Events table), and `error_message` for a background PDF that failed before rendering.
 */
export function pdfEventData(document: EventDocument, extra: PdfEventExtra): Record<string, unknown> {
  const data: Record<string, unknown> = {
    ...document,
    filename: extra.filename,
    metadata: extra.metadata,
    warnings: extra.warnings ?? [],
    blocked_resources: extra.blockedResources ?? [],
    batch_id: extra.batchId,
  };
  if (extra.eInvoice) data.e_invoice = extra.eInvoice;
  if (extra.errorMessage !== undefined) data.error_message = extra.errorMessage;
  return data;
}

/** The sample data of a test event: a made-up succeeded test document. */
export function sampleDocumentData(now: Date, livemode: boolean): Record<string, unknown> {
  return pdfEventData(
    {
      id: '00000000-0000-4000-8000-000000000000',
      status: 'succeeded',
      pages: 1,
      bytes: 12_345,
      mode: 'fast',
      test: !livemode,
      template_id: null,
      template_version: null,
      error_code: null,
      created_at: now.toISOString(),
      expires_at: null,
      url: null,
      delivery: null,
    },
    { filename: 'document.pdf', metadata: null, batchId: null },
  );
}
