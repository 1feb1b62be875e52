import type { FinishingPlan } from '../finishing/index.js';
import type { SlotKind } from '../shared/team-slots.js';
import type { StoragePolicy } from './storage-policy.js';

/**
 * Why a document is made, chosen at the edge (the route, the job, the template editor); production derives
 * everything else from it (policyOf).
 * - `direct`: POST /pdf without async, answered with the file (`binary`) or its link (`url`); `replayable`
 *   when sent with an Idempotency-Key, whose replay needs the file.
 * - `queued`: a background render of a document queued by POST /pdf async or a batch.
 * - `preview`: the template editor's look (spec: Templates preview); never stored, counted or recorded.
 * - `thumbnail`: a picture of a template itself; no watermark, nothing stored, counted or recorded.
 */
export type Purpose = DirectPurpose | { kind: 'queued' } | { kind: 'preview' } | { kind: 'thumbnail' };

export interface DirectPurpose {
  kind: 'direct';
  response: 'binary' | 'url';
  replayable: boolean;
}

/** What production does for a purpose. */
export interface Policy {
  /** A document: admitted, recorded, counted when live, with events. */
  records: boolean;
  storage: StoragePolicy;
  /** Direct work takes any free team slot; background work leaves one for direct requests. */
  slot: SlotKind;
  /** The test-document mark on the pages. */
  watermark: boolean;
  /** What the purpose takes out of the finishing plan. */
  finishing(plan: FinishingPlan): FinishingPlan;
}

const asPlanned = (plan: FinishingPlan) => plan;

export function policyOf(purpose: Purpose, test: boolean): Policy {
  switch (purpose.kind) {
    case 'direct':
      return {
        records: true,
        // Spec: a url answer needs the stored file; a test binary answer is stored only when it may be
        // replayed; a live binary answer is stored when there is room, and returned anyway.
        storage: purpose.response === 'url' ? 'required' : test && !purpose.replayable ? 'never' : 'if_room',
        slot: 'direct',
        watermark: test,
        finishing: asPlanned,
      };
    case 'queued':
      // Spec: a background PDF is always stored.
      return {
        records: true,
        storage: 'required',
        slot: 'background',
        watermark: test,
        finishing: asPlanned,
      };
    case 'preview':
      // Looked at, not handed out: never encrypted (a user password would hide it).
      return {
        records: false,
        storage: 'never',
        slot: 'direct',
        watermark: true,
        finishing: (plan) => ({ ...plan, protect: null }),
      };
    case 'thumbnail':
      // A picture of the template itself: no merged pages, no encryption, no tags unless a step needs them.
      // A dashboard page asks for many at once: they leave the team's last slot to direct requests.
      return {
        records: false,
        storage: 'never',
        slot: 'background',
        watermark: false,
        finishing: (plan) => ({
          ...plan,
          protect: null,
          merge: null,
          tagged: plan.outline || plan.pdf_ua !== null,
        }),
      };
  }
}
