import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../shared/errors.js';
import { expandMargins, isLength, lengthToInches } from './lengths.js';
import { type PageDefaults, type PageOptionsInput, resolvePageOptions } from './page-options.js';

function refusal(input: PageOptionsInput, defaults?: PageDefaults): AppError {
  try {
    resolvePageOptions(input, defaults);
  } catch (err) {
    assert.ok(err instanceof AppError, `expected AppError, got ${String(err)}`);
    return err;
  }
  assert.fail(`accepted ${JSON.stringify(input)}`);
}

describe('lengths', () => {
  const valid = ['0', '0mm', '20mm', '1.5cm', '.5in', '10px', '12pt', '007mm', '2.25in'];
  const invalid = [
    '',
    '00',
    '0.0',
    '1',
    '-1mm',
    '+1mm',
    '1.mm',
    '1e2mm',
    '1 mm',
    'mm',
    '20MM',
    '20em',
    '20%',
    ' 20mm',
    '20mm ',
    '1..2mm',
    'calc(1mm)',
    '0x10mm',
    '１mm',
  ];
  for (const v of valid) it(`accepts ${JSON.stringify(v)}`, () => assert.equal(isLength(v), true));
  for (const v of invalid) it(`refuses ${JSON.stringify(v)}`, () => assert.equal(isLength(v), false));

  it('converts units to inches', () => {
    const cases: Array<[string, number]> = [
      ['0', 0],
      ['25.4mm', 1],
      ['2.54cm', 1],
      ['96px', 1],
      ['72pt', 1],
      ['1.5in', 1.5],
    ];
    for (const [v, inches] of cases) assert.ok(Math.abs((lengthToInches(v) ?? -1) - inches) < 1e-9, v);
    assert.equal(lengthToInches('20'), null);
  });

  it('expands margin shorthands like CSS', () => {
    assert.deepEqual(expandMargins('1mm'), { top: '1mm', right: '1mm', bottom: '1mm', left: '1mm' });
    assert.deepEqual(expandMargins('1mm 2mm'), { top: '1mm', right: '2mm', bottom: '1mm', left: '2mm' });
    assert.deepEqual(expandMargins('1mm 2mm 3mm'), { top: '1mm', right: '2mm', bottom: '3mm', left: '2mm' });
    assert.deepEqual(expandMargins('1mm 2mm 3mm 4mm'), {
      top: '1mm',
      right: '2mm',
      bottom: '3mm',
      left: '4mm',
    });
  });
});

describe('resolvePageOptions defaults (spec "Page option values")', () => {
  it('fills A4, portrait, 20mm and the fallback mode', () => {
    assert.deepEqual(resolvePageOptions({}), {
      mode: 'fast',
      format: 'A4',
      orientation: 'portrait',
      margins: '20mm',
    });
    assert.equal(resolvePageOptions({}, {}, 'print').mode, 'print');
  });

  it('takes the template settings (margin singular) before the defaults, the request before both', () => {
    const defaults = { mode: 'fast', format: 'Letter', orientation: 'landscape', margin: '1in' };
    assert.deepEqual(resolvePageOptions({}, defaults, 'print'), {
      mode: 'fast',
      format: 'Letter',
      orientation: 'landscape',
      margins: '1in',
    });
    assert.deepEqual(resolvePageOptions({ format: 'A5', margins: '0', mode: 'print' }, defaults), {
      mode: 'print',
      format: 'A5',
      orientation: 'landscape',
      margins: '0',
    });
  });

  it('accepts a custom size and ignores a template orientation for it', () => {
    const page = resolvePageOptions(
      { format: { width: '100mm', height: '4in' } },
      { orientation: 'landscape' },
    );
    assert.deepEqual(page.format, { width: '100mm', height: '4in' });
    assert.equal(page.orientation, 'portrait');
  });

  it('ignores a request orientation with a custom size: orientation applies to named formats only', () => {
    for (const orientation of ['portrait', 'landscape'] as const) {
      const page = resolvePageOptions({ format: { width: '100mm', height: '50mm' }, orientation });
      assert.deepEqual(page.format, { width: '100mm', height: '50mm' });
      assert.equal(page.orientation, 'portrait');
    }
    const fromTemplate = resolvePageOptions(
      { orientation: 'landscape' },
      { format: { width: '4in', height: '6in' }, orientation: 'portrait' },
    );
    assert.deepEqual(fromTemplate.format, { width: '4in', height: '6in' });
    assert.equal(fromTemplate.orientation, 'portrait');
  });
});

describe('resolvePageOptions refusals name the option', () => {
  const table: Array<[string, PageOptionsInput, string]> = [
    ['unknown mode', { mode: 'slow' }, 'mode'],
    ['null mode', { mode: null }, 'mode'],
    ['lower-case format', { format: 'a4' }, 'format'],
    ['unknown format', { format: 'A3' }, 'format'],
    ['format number', { format: 4 }, 'format'],
    ['format array', { format: ['1mm', '1mm'] }, 'format'],
    ['custom size missing height', { format: { width: '10mm' } }, 'format'],
    ['custom size extra key', { format: { width: '10mm', height: '10mm', depth: '1mm' } }, 'format'],
    ['custom size without unit', { format: { width: '100', height: '100' } }, 'format'],
    ['custom size zero', { format: { width: '0', height: '100mm' } }, 'format'],
    ['custom size over 200in', { format: { width: '201in', height: '1in' } }, 'format'],
    [
      'unknown orientation with custom size',
      { format: { width: '10cm', height: '10cm' }, orientation: 'diagonal' },
      'orientation',
    ],
    ['unknown orientation', { orientation: 'diagonal' }, 'orientation'],
    ['margins number', { margins: 20 }, 'margins'],
    ['margins five values', { margins: '1mm 1mm 1mm 1mm 1mm' }, 'margins'],
    ['margins double space', { margins: '1mm  2mm' }, 'margins'],
    ['margins comma', { margins: '1mm,2mm' }, 'margins'],
    ['margins negative', { margins: '-1mm' }, 'margins'],
    ['margins empty', { margins: '' }, 'margins'],
    ['margins leaving no area', { margins: '0 105mm' }, 'margins'],
    ['margins leaving no area in landscape', { orientation: 'landscape', margins: '105mm 0' }, 'margins'],
  ];
  for (const [name, input, field] of table) {
    it(name, () => {
      const err = refusal(input);
      assert.equal(err.code, 'invalid_request');
      assert.equal(err.status, 400);
      assert.deepEqual(err.details, { field });
      assert.match(err.message, new RegExp(field.replace('margins', 'margin')));
    });
  }

  it('a bad template margin is named as the template names it', () => {
    assert.deepEqual(refusal({}, { margin: 'wide' }).details, { field: 'margin' });
  });
});

/** A tiny deterministic PRNG so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('property tests', () => {
  const UNITS = ['mm', 'cm', 'in', 'px', 'pt'];
  const reference = /^(0|(\d+(\.\d+)?|\.\d+)(mm|cm|in|px|pt))$/;

  it('isLength agrees with the spec grammar on 20,000 random strings', () => {
    const next = rng(42);
    const alphabet = ['0', '1', '9', '.', '-', '+', ' ', 'm', 'c', 'i', 'n', 'p', 'x', 't', 'e', 'M', '%'];
    for (let i = 0; i < 20_000; i++) {
      const length = Math.floor(next() * 7);
      let s = '';
      for (let j = 0; j < length; j++) s += alphabet[Math.floor(next() * alphabet.length)];
      assert.equal(isLength(s), reference.test(s), JSON.stringify(s));
    }
  });

  it('any 1–4 valid lengths joined by single spaces are accepted and expand consistently', () => {
    const next = rng(7);
    for (let i = 0; i < 2_000; i++) {
      const count = 1 + Math.floor(next() * 4);
      const parts = Array.from({ length: count }, () =>
        next() < 0.1
          ? '0'
          : `${Math.floor(next() * 30)}${next() < 0.5 ? `.${Math.floor(next() * 100)}` : ''}${UNITS[Math.floor(next() * 5)]}`,
      );
      const margins = parts.join(' ');
      const box = expandMargins(margins);
      assert.ok(box, margins);
      assert.equal(box.top, parts[0]);
      assert.equal(box.bottom, parts[2] ?? parts[0]);
      assert.equal(box.left, parts[3] ?? parts[1] ?? parts[0]);
      assert.equal(expandMargins(`${margins} ${margins}`) === null, count * 2 > 4);
      if (count > 1) assert.equal(expandMargins(margins.replace(' ', '  ')), null);
    }
  });

  it('never throws anything but invalid_request for arbitrary JSON values', () => {
    const next = rng(99);
    const values: unknown[] = [
      null,
      true,
      0,
      -1,
      'A4',
      'x',
      '20mm',
      {},
      [],
      { width: '1in', height: '1in' },
      { width: 1 },
    ];
    for (let i = 0; i < 3_000; i++) {
      const pick = () => (next() < 0.3 ? undefined : values[Math.floor(next() * values.length)]);
      const input = { mode: pick(), format: pick(), orientation: pick(), margins: pick() };
      try {
        resolvePageOptions(input);
      } catch (err) {
        assert.ok(err instanceof AppError && err.code === 'invalid_request', String(err));
      }
    }
  });
});
