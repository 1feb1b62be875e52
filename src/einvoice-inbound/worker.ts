import { markStarted } from '../shared/task-deadline.js';
import { RulesNotReady } from './artefacts.js';
import { parseReceived } from './parse.js';
import { COMMON_RULES } from './plan.js';
import type { InboundReply, InboundTask } from './protocol.js';
import { InboundRefusal } from './refusal.js';
import { preloadSchematron, useRules } from './schematron.js';
import { validateReceived } from './validate.js';
import { preloadXsd } from './xsd.js';

async function run(task: InboundTask): Promise<InboundReply> {
  switch (task.kind) {
    case 'validate':
      useRules(task.rules);
      return { ok: true, value: await validateReceived(task.bytes, task.profile, () => markStarted(task)) };
    case 'parse':
      return { ok: true, value: await parseReceived(task.bytes) };
    case 'warm':
      useRules(task.rules);
      // The warm-up task loads these so the first validation does not wait for them.
      for (const rule of COMMON_RULES.schematrons) preloadIfReady(rule);
      for (const schema of COMMON_RULES.schemas) preloadXsd(schema);
      return { ok: true, value: null };
  }
}

/** A stylesheet still being compiled is loaded by the first check that needs it once it is ready. */
function preloadIfReady(rule: string): void {
  try {
    preloadSchematron(rule);
  } catch (err) {
    if (!(err instanceof RulesNotReady)) throw err;
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
    // Not the file's fault: the server cannot check it yet (pool.ts answers service_busy).
    if (err instanceof RulesNotReady) return { ok: false, rulesNotReady: err.artefact };
    const reason = err instanceof Error ? err.message : String(err);
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
