import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rng } from '../../test/helpers/random.js';
import { isAppError } from '../shared/errors.js';
import { sanitizeFilename } from '../shared/filenames.js';
import { MAX_FILENAME_CHARS, parseFilenamePattern, renderFilename, uniqueNames } from './filename-pattern.js';

describe('filename_pattern', () => {
  it('fills {{ index }} and dotted data paths; missing or non-scalar values print nothing', () => {
    const pattern = parseFilenamePattern(
      'inv-{{ number }}-{{customer.name}}-{{ index }}{{ nope.x }}{{ list }}',
    );
    assert.equal(
      renderFilename(pattern, { number: 7, customer: { name: 'Ada' }, list: [1] }, 3),
      'inv-7-Ada-3',
    );
  });

  it('refuses unbalanced braces and placeholders that are not paths, with invalid_request', () => {
    for (const bad of ['a{{ b', 'a }} b', '{{ }}', '{{ a b }}', '{{ a..b }}', '{{ a | upcase }}']) {
      assert.throws(
        () => parseFilenamePattern(bad),
        (err: unknown) => isAppError(err) && err.code === 'invalid_request',
        bad,
      );
    }
  });

  it('property: any pattern either parses or is invalid_request; rendered names are bounded and sanitise to safe names', () => {
    const r = rng(12);
    const alphabet = [
      'a',
      'Z',
      '9',
      '-',
      '.',
      ' ',
      '{',
      '}',
      '{{',
      '}}',
      '{{ x }}',
      '{{ index }}',
      '/',
      'é',
      '💥',
      '\\',
    ];
    for (let n = 0; n < 2_000; n++) {
      const pattern = Array.from({ length: 1 + r.int(20) }, () => r.pick(alphabet)).join('');
      let parsed: ReturnType<typeof parseFilenamePattern>;
      try {
        parsed = parseFilenamePattern(pattern);
      } catch (err) {
        assert.ok(isAppError(err) && err.code === 'invalid_request', pattern);
        continue;
      }
      const data = { x: r.pick(['', 'a/b', '../../etc', 'x'.repeat(300), 42, null]) };
      const name = renderFilename(parsed, data, r.int(10_000));
      assert.ok(name.length <= MAX_FILENAME_CHARS, pattern);
      assert.match(sanitizeFilename(name, '.pdf'), /^[A-Za-z0-9._-]+\.pdf$/);
    }
  });

  it('de-duplicates names case-insensitively before the extension', () => {
    const next = uniqueNames();
    assert.deepEqual(['a.pdf', 'A.pdf', 'a.pdf', 'a-2.pdf', 'b.pdf'].map(next), [
      'a.pdf',
      'A-2.pdf',
      'a-3.pdf',
      'a-2-2.pdf',
      'b.pdf',
    ]);
  });
});
