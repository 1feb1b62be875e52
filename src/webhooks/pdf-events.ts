import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { type EventDocument, type PdfEventExtra, pdfEventData } from './events.js';
import { type RecordedEvent, recordEvent } from './outbox.js';

/**
 * pdf.created / pdf.failed for one document, for direct and background renders alike (spec: Events,
 * "emitted by POST /pdf direct and async", never by previews). Call inside the transaction that stores the
 * document's final state. Test documents go to test endpoints, live ones to live endpoints.
 */
export async function recordPdfEvent(
  trx: Db,
  clock: Clock,
  input: PdfEventExtra & {
    type: 'pdf.created' | 'pdf.failed';
    teamId: string;
    test: boolean;
    /** The spec's Document object as GET /pdf/<id> shows it. */
    document: EventDocument;
  },
): Promise<RecordedEvent> {
  const data = pdfEventData(input.document, input);
  return recordEvent(trx, clock, { teamId: input.teamId, livemode: !input.test, type: input.type, data });
}
