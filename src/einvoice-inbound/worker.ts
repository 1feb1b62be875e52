import { markStarted } from '../shared/task-deadline.js';
import { parseReceived } from './parse.js';
import type { InboundReply, InboundTask } from './protocol.js';
import { InboundRefusal } from './refusal.js';
import { preloadSchematron } from './schematron.js';
import { validateReceived } from './validate.js';
import { preloadXsd } from './xsd.js';

/** Rules most received invoices need: loaded by a warm-up task so the first validation does not wait. */
const WARM_RULES = ['en16931/EN16931-UBL-validation.xslt', 'en16931/EN16931-CII-validation.xslt'];
const WARM_SCHEMAS = [
  'xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd',
  'xsd/cii-d16b/CrossIndustryInvoice_100pD16B.xsd',
];

async function run(task: InboundTask): Promise<InboundReply> {
  switch (task.kind) {
    case 'validate':
      return { ok: true, value: await validateReceived(task.bytes, task.profile, () => markStarted(task)) };
    case 'parse':
      return { ok: true, value: await parseReceived(task.bytes) };
    case 'warm':
      for (const rule of WARM_RULES) preloadSchematron(rule);
      for (const schema of WARM_SCHEMAS) preloadXsd(schema);
      return { ok: true, value: null };
  }
}

/**
 * An e-invoice pool worker (see pool.ts): parses and checks one received file. Anything the file makes
 * a library throw is the file's fault and answered as invalid_request, never a 500; this thread's heap
 * cap and the pool's wall-clock limit stop what slips past.
 */
export default async function handle(task: InboundTask): Promise<InboundReply> {
  markStarted(task);
  try {
    return await run(task);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (!(err instanceof InboundRefusal) && /compiled e-invoice rules are missing/.test(reason)) throw err;
    return {
      ok: false,
      code: 'invalid_request',
      message:
        err instanceof InboundRefusal
          ? `content_base64 is not an e-invoice Quire can read: ${reason}.`
          : `The file could not be read (${reason.slice(0, 200)}); check that it is an undamaged e-invoice XML or PDF.`,
      details: undefined,
    };
  }
}
