import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Compile } from 'typebox/compile';
import {
  type TemplateField,
  type TemplateFieldNode,
  TemplateFieldsSchema,
  templateFields,
} from './fields.js';

const SAMPLE = {
  customer: { name: 'Contoso', address: { city: 'Berlin', zip: '10117' }, vip: true },
  invoice: { number: 'INV-1', issue_date: '2026-11-02', total: 12.5, notes: null },
  tags: ['a', 'b'],
  empty_list: [],
  items: [
    { name: 'A', quantity: 2, unit_price: '1.50' },
    { name: 'B', discount: 5, taxes: [{ rate: 19 }] },
  ],
  'a.b': 'literal',
  l1: { l2: { l3: { l4: { l5: { l6: 'six', l6o: { l7: 'seven' } } } } } },
};

function byPath(fields: TemplateField[]): Map<string, TemplateField> {
  return new Map(fields.map((f) => [f.path, f]));
}

describe('templateFields', () => {
  const result = templateFields(SAMPLE);
  const fields = byPath(result.fields);

  const EXPECTED: Array<[string, Partial<TemplateField>]> = [
    ['customer.name', { type: 'text', key: 'name', label: 'Name', example: 'Contoso' }],
    ['customer.address.city', { type: 'text', example: 'Berlin' }],
    ['customer.vip', { type: 'boolean', example: true }],
    ['invoice.issue_date', { type: 'date', label: 'Issue date' }],
    ['invoice.total', { type: 'number', example: 12.5 }],
    ['invoice.notes', { type: 'text', example: null }],
    ['tags', { type: 'list', item_type: 'text', example: 'a' }],
    ['empty_list', { type: 'list' }],
    ['["a.b"]', { type: 'text', key: 'a.b', example: 'literal' }],
    ['l1.l2.l3.l4.l5.l6', { type: 'text', example: 'six' }],
  ];
  for (const [path, expected] of EXPECTED) {
    it(`lists ${path}`, () => {
      const field = fields.get(path);
      assert.ok(field, `missing ${path} in ${[...fields.keys()].join(', ')}`);
      for (const [key, value] of Object.entries(expected)) {
        assert.deepEqual(field[key as keyof TemplateField], value, `${path}.${key}`);
      }
    });
  }

  it('lists arrays of objects as line_items with the union of the first items keys', () => {
    const items = fields.get('items');
    assert.equal(items?.type, 'line_items');
    const inner = items?.fields ?? [];
    assert.deepEqual(
      inner.map((f) => [f.path, f.type]),
      [
        ['items[].name', 'text'],
        ['items[].quantity', 'number'],
        ['items[].unit_price', 'text'],
        ['items[].discount', 'number'],
        ['items[].taxes', 'line_items'],
      ],
    );
    assert.deepEqual(
      inner[4]?.fields?.map((f) => f.path),
      ['items[].taxes[].rate'],
    );
  });

  it('cuts at 6 levels and says so; objects are not fields themselves', () => {
    assert.equal(fields.has('l1.l2.l3.l4.l5.l6o.l7'), false);
    assert.equal(fields.has('customer'), false);
    assert.equal(fields.has('customer.address'), false);
    assert.equal(result.truncated, true);
  });

  it('nests the same fields in tree with exact keys', () => {
    const top = result.tree.map((n) => [n.key, n.type]);
    assert.deepEqual(top, [
      ['customer', 'object'],
      ['invoice', 'object'],
      ['tags', 'list'],
      ['empty_list', 'list'],
      ['items', 'line_items'],
      ['a.b', 'text'],
      ['l1', 'object'],
    ]);
    const leaves: string[] = [];
    const walk = (nodes: TemplateFieldNode[]) => {
      for (const n of nodes) {
        if (n.type !== 'object' && n.type !== 'line_items') leaves.push(n.path);
        if (n.type === 'line_items') leaves.push(n.path);
        if (n.type === 'object') walk(n.children ?? []);
      }
    };
    walk(result.tree);
    assert.deepEqual(
      leaves,
      result.fields.map((f) => f.path),
    );
  });

  it('stops at 200 fields', () => {
    const wide = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`f${i}`, i]));
    const out = templateFields(wide);
    assert.equal(out.fields.length, 200);
    assert.equal(out.tree.length, 200);
    assert.equal(out.truncated, true);
    assert.equal(out.fields[199]?.path, 'f199');
  });

  it('gives empty arrays without sample data', () => {
    for (const none of [null, undefined, {}]) {
      assert.deepEqual(templateFields(none), { fields: [], tree: [], truncated: false });
    }
  });

  it('keeps __proto__ as an exact key', () => {
    const out = templateFields(JSON.parse('{"__proto__":{"x":1}}'));
    assert.equal(out.tree[0]?.key, '__proto__');
    assert.equal(out.fields[0]?.path, '__proto__.x');
  });

  it('matches TemplateFieldsSchema', () => {
    const check = Compile(TemplateFieldsSchema);
    assert.equal(check.Check(result), true, JSON.stringify([...check.Errors(result)].slice(0, 3)));
    const deepLines = templateFields({ a: [{ b: [{ c: [{ d: [{ e: [{ f: [{ g: 1 }] }] }] }] }] }] });
    assert.equal(check.Check(deepLines), true, JSON.stringify([...check.Errors(deepLines)].slice(0, 3)));
    assert.equal(check.Check({ fields: [{ path: 'x' }], tree: [], truncated: false }), false);
  });
});
