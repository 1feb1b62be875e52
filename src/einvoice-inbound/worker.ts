import { markStarted } from '../shared/task-deadline.js';
import { parseReceived } from './parse.js';
import { COMMON_RULES } from './plan.js';
import type { InboundReply, InboundTask } from './protocol.js';
import { InboundRefusal } from './refusal.js';
import { preloadSchematron } from './schematron.js';
import { validateReceived } from './validate.js';
import { preloadXsd } from './xsd.js';

async function run(task: InboundTask): Promise<InboundReply> {
  switch (task.kind) {
    case 'validate':
      return { ok: true, value: await validateReceived(task.bytes, task.profile, () => markStarted(task)) };
    case 'parse':
      return { ok: true, value: await parseReceived(task.bytes) };
    case 'warm':
      // The warm-up task loads these so the first validation does not wait for them.
      for (const rule of COMMON_RULES.schematrons) preloadSchematron(rule);
      for (const schema of COMMON_RULES.schemas) preloadXsd(schema);
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
      details: err instanceof InboundRefusal ? err.details : undefined,
    };
  }
}
