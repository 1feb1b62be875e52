import { type ProducedFile, usagePeriodOf } from '../documents/index.js';
import { newId } from '../shared/ids.js';
import { inSpan } from '../telemetry/index.js';
import type { Admitted } from './admission.js';
import type { EInvoicePlan } from './einvoice.js';
import type { PreparedHtml } from './prepare.js';
import type { ProduceDeps } from './produce-deps.js';
import { type Produced, storeFile } from './record.js';
import {
  admit,
  type Checked,
  check,
  finish,
  type Prepared,
  prepare,
  render,
  resolve,
  slot,
  type Work,
  xmlDocument,
} from './steps.js';

export type StepName = 'check' | 'admit' | 'slot' | 'prepare' | 'resolve' | 'render' | 'finish' | 'store';

/** What the steps made up to the stored file; the caller records it (record.ts). */
export interface Made {
  ok: true;
  produced: Produced;
  /** The stored file's columns; null when the policy records nothing (previews, thumbnails). */
  file: ProducedFile | null;
  id: string;
  createdAt: Date;
  admitted: Admitted | null;
  prepared: PreparedHtml | null;
  checked: Checked;
}

/** The step that refused, with what was made before it: the caller decides what the failure leaves. */
export interface Refused {
  ok: false;
  step: StepName;
  error: unknown;
  /** A direct document's reservation, to give back. */
  admitted: Admitted | null;
  prepared: PreparedHtml | null;
  einv: EInvoicePlan | null;
}

export type MakeResult = Made | Refused;

/**
 * Direct work counts as "in preparation" (admission's process-wide bound) from its arrival until it renders;
 * work that waits for a slot (thumbnails) counts once it holds one, since a wait holds nothing but would fill
 * the bound every team's POST /pdf shares. Queued work is bounded by the workers.
 */
export class PreparationHold {
  #leave: () => void = () => {};

  constructor(private readonly deps: Pick<ProduceDeps, 'admission'>) {}

  enter(): void {
    this.#leave = this.deps.admission.enterPreparation();
  }

  leave(): void {
    this.#leave();
    this.#leave = () => {};
  }
}

/** Runs the steps in order (steps.ts); the first refusal ends the run and says which step refused. */
export async function make(deps: ProduceDeps, work: Work, hold: PreparationHold): Promise<MakeResult> {
  let step: StepName = 'check';
  let admitted: Admitted | null = null;
  let checked: Checked | null = null;
  let prepared: Prepared | null = null;
  try {
    const checks = await traced('check', () => check(work.request));
    checked = checks;
    step = 'admit';
    if (work.policy.records) admitted = await traced('admit', () => admit(deps, work));
    if (checked.einv?.kind === 'xml') {
      step = 'store';
      await startQueued(deps, work);
      const xml = xmlDocument(work, checked.einv);
      return await traced('store', () =>
        stored(deps, work, xml, { admitted, checked: checks, signed: false }),
      );
    }
    step = 'slot';
    const lease = await traced('slot', () => slot(deps, work));
    try {
      if (work.slotWait && !work.queued) hold.enter();
      step = 'prepare';
      prepared = await traced('prepare', () => prepare(deps, work, checks));
      step = 'resolve';
      const ready = prepared;
      const resolved = await traced('resolve', () => resolve(deps, work, ready));
      await startQueued(deps, work);
      step = 'render';
      hold.leave();
      const rendered = await traced('render', () => render(deps, work, ready, resolved)).catch(
        (err: unknown) => {
          // A refused merge source is the request's fault found before any output, as a wrong id is.
          if (resolved.inputRefused) step = 'resolve';
          throw err;
        },
      );
      step = 'finish';
      const createdAt = work.queued?.createdAt ?? deps.clock.now();
      const produced = await traced('finish', () =>
        finish(work, checks, ready, resolved, rendered, createdAt),
      );
      // The team's slot counts documents rendering (spec): storing the file (an fsync) is not, so the
      // team's next document may start meanwhile. Background work holds a slot from its preparation on,
      // and a batch's items kept theirs through the store, pages waiting for it (bench/batches.ts).
      await lease.release();
      step = 'store';
      const signed = ready.finishing.sign !== null;
      const made = { admitted, checked: checks, prepared: ready.html, createdAt, signed };
      return await traced('store', () => stored(deps, work, produced, made));
    } finally {
      // Released above once finished; here when a step before that refused (a second release is a no-op).
      await lease.release();
    }
  } catch (error) {
    return {
      ok: false,
      step,
      error,
      admitted,
      prepared: prepared?.html ?? null,
      einv: checked?.einv ?? null,
    };
  }
}

/** One step as a span of the current trace (`quire.<step>`): its timing, and whether it refused. */
function traced<T>(step: StepName, work: () => Promise<T>): Promise<T> {
  return inSpan(`quire.${step}`, {}, work);
}

/** A queued document turns `processing` once its render slot is held (an XML one: when it is made). */
async function startQueued(deps: Pick<ProduceDeps, 'lifecycle'>, work: Work): Promise<void> {
  if (work.queued) await deps.lifecycle.start(work.queued.id, work.caller.teamId);
}

/** store: the file kept by the policy under the document's id (nothing for previews and thumbnails). */
async function stored(
  deps: ProduceDeps,
  work: Work,
  produced: Produced,
  made: {
    admitted: Admitted | null;
    checked: Checked;
    prepared?: PreparedHtml;
    createdAt?: Date;
    signed: boolean;
  },
): Promise<Made> {
  const id = work.queued?.id ?? newId();
  // A queued document was created when it was queued; a direct one when its file was made.
  const createdAt = made.createdAt ?? work.queued?.createdAt ?? deps.clock.now();
  const prepared = made.prepared ?? null;
  const base = {
    ok: true as const,
    produced,
    id,
    createdAt,
    admitted: made.admitted,
    checked: made.checked,
    prepared,
  };
  if (!work.policy.records) return { ...base, file: null };
  const file = await storeFile(deps, produced, {
    id,
    caller: work.caller,
    test: work.test,
    storage: work.policy.storage,
    createdAt,
    // A live document counts in the period it reserved in: a queued one when it was queued.
    usagePeriod: work.queued ? usagePeriodOf(work.queued.createdAt) : (made.admitted?.period ?? null),
    prepared,
    signed: made.signed,
  });
  return { ...base, file };
}
