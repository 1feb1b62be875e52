import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Rng, randomJson, rng } from '../../test/helpers/random.js';
import { referenceLiquid } from '../../test/helpers/reference-liquid.js';
import { AppError } from '../shared/errors.js';
import type { Warning } from '../shared/warnings.js';
import { templateWords } from './data-paths.js';
import { LiquidRenderer } from './renderer.js';

const VARS = [
  'a',
  'b',
  'a.b',
  'items',
  'items[0]',
  'items.first.x',
  'x.y.z',
  'k',
  'a[k]',
  'item',
  'item.x',
  'forloop.index',
];
const FILTERS = [
  '',
  '',
  '| upcase',
  '| default: "d"',
  '| plus: 1',
  '| size',
  '| escape',
  '| first',
  '| append: a',
];
/** Filters that often fail on random input (bad filter input, unknown filter). */
const RISKY_FILTERS = [
  '| money: "EUR"',
  '| money: c, l',
  '| number: 2',
  '| percent',
  '| date_format: "dd.MM.yyyy"',
  '| date_format: f, l, z',
  '| split: "," | join: "-"',
  '| round: 2',
  '| times: a',
  '| nosuch',
  '| date: "%Y"',
];
const KEYS = ['a', 'b', 'items', 'x', 'y', 'k', 'c', 'l', 'f', 'z', 'SECRETKEY'];

function filter(r: Rng): string {
  return r.next() < 0.15 ? r.pick(RISKY_FILTERS) : r.pick(FILTERS);
}

function output(r: Rng): string {
  return `{{ ${r.pick(VARS)} ${filter(r)} }}`;
}

function block(r: Rng, depth: number): string {
  const inner = () => (depth > 2 ? output(r) : template(r, depth + 1));
  switch (r.int(12)) {
    case 0:
      return `{% if ${r.pick(VARS)} %}${inner()}{% else %}${inner()}{% endif %}`;
    case 1:
      return `{% for item in ${r.pick(VARS)} %}${inner()}{% else %}${inner()}{% endfor %}`;
    case 2:
      return `{% case ${r.pick(VARS)} %}{% when 1 %}${inner()}{% else %}${inner()}{% endcase %}`;
    case 3:
      return `{% assign ${r.pick(['a', 'item', 'q'])} = ${r.pick(VARS)} ${filter(r)} %}`;
    case 4:
      return `{% capture q %}${inner()}{% endcapture %}{{ q }}`;
    case 5:
      return `{% unless ${r.pick(VARS)} %}${inner()}{% endunless %}{% cycle a, "x" %}{% echo ${r.pick(VARS)} %}`;
    case 6:
      if (r.next() < 0.7) return output(r);
      return r.pick(['{% if a %}', '{% endfor %}', '{{ a ', '{% include "x" %}', '<p>text</p>']);
    default:
      return output(r);
  }
}

function template(r: Rng, depth = 0): string {
  return Array.from({ length: 1 + r.int(4) }, () => block(r, depth)).join('\n');
}

function randomData(r: Rng): Record<string, unknown> {
  const data = randomJson(r, 0, KEYS);
  const base = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
  return { SECRETKEY: 'SECRETVALUE', ...(base as Record<string, unknown>) };
}

/** Every identifier in a warning path must come from the template itself. */
function pathWords(path: string): string[] {
  return path
    .replace(/\["([^"]*)"\]/g, '.$1')
    .split(/[.[\]]+/)
    .filter((w) => w !== '');
}

function outcome(fn: () => string): { html: string } | { error: unknown } {
  try {
    return { html: fn() };
  } catch (error) {
    return { error };
  }
}

describe('Liquid fuzz (seeded)', () => {
  const engine = new LiquidRenderer();
  const reference = referenceLiquid();

  it('random templates and data: same HTML as a normal render, or template_render_error; paths only from the template', () => {
    for (let seed = 1; seed <= 1500; seed++) {
      const r = rng(seed);
      const source = template(r);
      const data = randomData(r);
      const expected = outcome(() => reference.parseAndRenderSync(source, structuredClone(data)) as string);
      let warnings: Warning[] = [];
      const actual = outcome(() => {
        const result = engine.renderSource(source, structuredClone(data));
        warnings = result.warnings;
        return result.html;
      });
      const label = `seed ${seed}: ${source}`;
      if ('error' in actual) {
        assert.ok(actual.error instanceof AppError, `${label}: ${String(actual.error)}`);
        assert.equal(actual.error.code, 'template_render_error', label);
        assert.ok(!actual.error.message.includes('SECRET'), `${label}: ${actual.error.message}`);
        // File tags are refused at parse time even where a normal render would skip them.
        const refused = source.includes('{% include');
        assert.ok('error' in expected || refused, `${label}: a normal render succeeds`);
        continue;
      }
      assert.ok('html' in expected, `${label}: a normal render fails`);
      assert.equal(actual.html, expected.html, label);
      assert.ok(warnings.length <= 20, label);
      const words = templateWords(source);
      for (const warning of warnings) {
        const path = warning.code === 'missing_variable' ? warning.path : '';
        for (const word of pathWords(path)) assert.ok(words.has(word), `${label}: ${path}`);
      }
    }
  });
});
