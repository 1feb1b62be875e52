/**
 * A move of a state table: where it may start (`null`: the row is new), where it ends, and who makes it.
 * The tables of jobs (src/jobs/states.ts), email deliveries (src/email/states.ts) and webhook deliveries
 * (src/webhooks/delivery-states.ts) are records of these, in the style of src/documents/states.ts.
 */
export interface Transition<S extends string> {
  from: readonly (S | null)[];
  to: S;
  by: string;
}

export interface TransitionGuards<S extends string, N extends string> {
  /** The statuses a stored row may be in when `name` moves it: the `WHERE status IN …` of its update. */
  movableFrom(name: N): S[];
  /** Whether `name` may move a row that is `from` (`null`: not written yet). */
  mayMove(name: N, from: S | null): boolean;
}

/** The two questions the code asks a state table, answered from the table alone. */
export function transitionGuards<S extends string, N extends string>(
  table: Record<N, Transition<S>>,
): TransitionGuards<S, N> {
  return {
    movableFrom: (name) => table[name].from.filter((s): s is S => s !== null),
    mayMove: (name, from) => table[name].from.includes(from),
  };
}
