import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Transition, TransitionGuards } from '../../src/shared/transitions.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

export interface StateTable<S extends string, N extends string> extends TransitionGuards<S, N> {
  statuses: readonly S[];
  /** Statuses nothing may move a row out of (none for webhook deliveries: a retry reopens them). */
  final: readonly S[];
  transitions: Record<N, Transition<S>>;
  /** The files under src/ that write the table's status: every move they make must come from the table. */
  writers: readonly string[];
}

/**
 * The checks every state table passes (src/jobs/states.ts and its likes): it is closed over its statuses,
 * each status is reachable, nothing leaves a final status, its guards answer from it, and the code that
 * writes the status names a transition of the table for every write (no status literal of its own) and
 * uses every transition the table lists.
 */
export function checkStateTable<S extends string, N extends string>(table: StateTable<S, N>): void {
  const names = Object.keys(table.transitions) as N[];
  const known = new Set<S | null>([null, ...table.statuses]);
  for (const name of names) {
    const { from, to } = table.transitions[name];
    for (const s of [...from, to]) assert.ok(known.has(s), `${name} names an unknown status ${s}`);
    assert.deepEqual(
      table.movableFrom(name),
      from.filter((s) => s !== null),
      `${name}: its SQL guard`,
    );
    for (const s of table.statuses)
      assert.equal(table.mayMove(name, s), from.includes(s), `${name} from ${s}`);
    for (const s of table.final) assert.equal(table.mayMove(name, s), false, `${name} leaves final ${s}`);
  }
  assert.deepEqual([...reachable(table.transitions, names)].sort(), [...table.statuses].sort(), 'reachable');
  const source = table.writers.map((file) => readFileSync(path.join(SRC, file), 'utf8')).join('\n');
  const literal = new RegExp(`status: '(${table.statuses.join('|')})'`);
  assert.doesNotMatch(source, literal, 'a status written without the table');
  for (const name of names) {
    assert.match(
      source,
      new RegExp(`'${name}'|\\.${name}\\b`),
      `${name} is in the table but no code makes it`,
    );
  }
}

function reachable<S extends string, N extends string>(transitions: Record<N, Transition<S>>, names: N[]) {
  const seen = new Set<S>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const name of names) {
      const { from, to } = transitions[name];
      if (!seen.has(to) && from.some((s) => s === null || seen.has(s))) {
        seen.add(to);
        grew = true;
      }
    }
  }
  return seen;
}
