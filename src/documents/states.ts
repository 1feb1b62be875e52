import { Type } from 'typebox';

/**
 * A document's states and the moves between them, in one table (spec: Document status). The lifecycle
 * (lifecycle.ts) checks every change against it, the SQL guards of its updates come from it, and the API's
 * status lists are built from it.
 *
 *   (new) ─queue─► queued ─start─► processing ─succeed─► succeeded       a background render
 *                    │                  └────────fail───► failed
 *                    ├─abandon─► failed (a batch item) or removed         failed before rendering
 *                    └─cancel──► canceled                                 a batch cancel
 *   (new) ─succeed─► succeeded, (new) ─fail─► failed                      a direct render's final row
 *
 * `succeed` and `fail` are the two final outcomes of a render, whether its row is new (a direct render
 * writes it finished) or queued: one writer each (lifecycle.finish).
 */
export const DOCUMENT_STATUSES = ['queued', 'processing', 'succeeded', 'failed', 'canceled'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Still waiting or rendering: a batch with one is not done, a queued one may be withdrawn. */
export const OPEN_STATUSES = ['queued', 'processing'] as const satisfies readonly DocumentStatus[];
/** Nothing moves a document out of these. */
export const FINAL_STATUSES = [
  'succeeded',
  'failed',
  'canceled',
] as const satisfies readonly DocumentStatus[];

/** A move of the lifecycle: where it may start (`null`: the row is new), where it ends, and who makes it. */
interface Transition {
  from: readonly (DocumentStatus | null)[];
  to: DocumentStatus;
  by: string;
}

export const TRANSITIONS = {
  queue: { from: [null], to: 'queued', by: 'an async POST /pdf or a batch, with its job' },
  // `processing` again: a retried attempt after a crash starts the same document once more.
  start: { from: OPEN_STATUSES, to: 'processing', by: 'the worker that claimed the job' },
  succeed: {
    from: [null, ...OPEN_STATUSES],
    to: 'succeeded',
    by: 'a direct render, or the worker, once the file is stored',
  },
  fail: {
    from: [null, ...OPEN_STATUSES],
    to: 'failed',
    by: 'a direct render that failed while rendering, or the worker when the render failed for good',
  },
  abandon: { from: OPEN_STATUSES, to: 'failed', by: 'the worker, when the job cannot run at all' },
  cancel: { from: ['queued'], to: 'canceled', by: 'a batch cancel' },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof TRANSITIONS;

/** The statuses a stored document may be in when `name` moves it (the `WHERE status IN …` of its update). */
export function movableFrom(name: TransitionName): DocumentStatus[] {
  const from: readonly (DocumentStatus | null)[] = TRANSITIONS[name].from;
  return from.filter((s): s is DocumentStatus => s !== null);
}

/** Whether `name` may move a document that is `from` (`null`: not written yet). */
export function mayMove(name: TransitionName, from: DocumentStatus | null): boolean {
  return (TRANSITIONS[name].from as readonly (DocumentStatus | null)[]).includes(from);
}

/**
 * The API's status field and filter: every status, in the table's order (written out so TypeBox keeps the
 * literal types; the states test checks it lists DOCUMENT_STATUSES).
 */
export function documentStatusSchema(options: { description?: string } = {}) {
  return Type.Union(
    [
      Type.Literal('queued'),
      Type.Literal('processing'),
      Type.Literal('succeeded'),
      Type.Literal('failed'),
      Type.Literal('canceled'),
    ],
    options,
  );
}
