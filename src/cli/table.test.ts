import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTable, tableDate } from './table.js';

describe('CLI tables', () => {
  it('pads every column but the last to its widest cell, header included, with no trailing spaces', () => {
    const lines = formatTable(
      ['ID', 'PLAN', 'NAME'],
      [
        ['t1', 'starter', 'Acme'],
        ['team-22', 'free', 'B'],
      ],
    );
    assert.deepEqual(lines, ['ID       PLAN     NAME', 't1       starter  Acme', 'team-22  free     B']);
    assert.deepEqual(formatTable(['A', 'B'], [['x', '']]), ['A  B', 'x']);
  });

  it('shows dates in UTC to the minute, and a dash for none', () => {
    assert.equal(tableDate('2026-11-26T17:29:41.210Z'), '2026-11-26 17:29 UTC');
    assert.equal(tableDate(null), '-');
  });
});
