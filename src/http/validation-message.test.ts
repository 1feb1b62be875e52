import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifySchema, FastifySchemaValidationError } from 'fastify';
import { randomJson, rng } from '../../test/helpers/random.js';
import { PdfRequestBody } from '../pdf/schema.js';
import { CreateTemplateBody, ListQuery, UpdateTemplateBody } from '../templates/schemas.js';
import { didYouMean } from './did-you-mean.js';
import { describeValidationError } from './validation-message.js';
import { validatorCompiler } from './validator.js';

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/** The message the API would answer for `data`, through the same compiler Fastify uses. */
function messageFor(schema: unknown, data: unknown, httpPart: 'body' | 'querystring' = 'body'): string {
  const validate = validatorCompiler({
    schema: schema as FastifySchema,
    httpPart,
    method: 'POST',
    url: '/x',
  }) as unknown as Validate;
  assert.equal(validate(data), false, `expected ${JSON.stringify(data)} to be refused`);
  return describeValidationError(validate.errors ?? [], httpPart);
}

/** Ajv's own phrasings, which must never reach a client. */
const LIBRARY_PHRASING =
  /must NOT|equal to constant|match a schema|must match|additional properties|\bundefined\b/;

describe('validation messages say how to fix the request', () => {
  const table: Array<[string, unknown, unknown, string]> = [
    [
      'an enum failure lists the allowed values',
      PdfRequestBody,
      { html: 'x', format: 'A3' },
      'Field "format" must be one of "A4", "A5", "Letter", "Legal" or an object {width, height}.',
    ],
    [
      'a two-value enum',
      PdfRequestBody,
      { html: 'x', response: 'pdf' },
      'Field "response" must be one of "binary" or "url".',
    ],
    [
      'an object sent for a union is checked as the object alternative',
      PdfRequestBody,
      { html: 'x', format: { width: '1in' } },
      'Missing required field "format.height" in the body.',
    ],
    [
      'a wrong type inside the object alternative',
      PdfRequestBody,
      { html: 'x', format: { width: 5, height: '1in' } },
      'Field "format.width" must be a string.',
    ],
    [
      'a near-miss unknown field gets a did-you-mean',
      PdfRequestBody,
      { html: 'x', margin: '1mm' },
      'Unknown field "margin" in the body; did you mean "margins"?',
    ],
    [
      'every unknown field is named',
      PdfRequestBody,
      { html: 'x', margin: '1mm', colour: 'red', Template_Id: 'x' },
      'Unknown fields in the body: "margin" (did you mean "margins"?), "colour", "Template_Id" (did you mean "template_id"?).',
    ],
    [
      'unknown fields inside an object are named with their path',
      PdfRequestBody,
      { e_invoice: { standard: 'factur-x', invoce: {} } },
      'Unknown field "e_invoice.invoce" in the body; did you mean "e_invoice.invoice"?',
    ],
    ['an empty string', PdfRequestBody, { html: '' }, 'Field "html" must not be empty.'],
    [
      'a too-long string',
      PdfRequestBody,
      { html: 'x', filename: 'f'.repeat(101) },
      'Field "filename" must be at most 100 characters long.',
    ],
    [
      'too many metadata keys',
      PdfRequestBody,
      { html: 'x', metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) },
      'Field "metadata" must have at most 20 keys.',
    ],
    [
      'a number below the minimum',
      PdfRequestBody,
      { html: 'x', template_version: 0 },
      'Field "template_version" must be at least 1.',
    ],
    ['an empty update', UpdateTemplateBody, {}, 'The body must have at least 1 field.'],
    ['a nullable string', UpdateTemplateBody, { css: 5 }, 'Field "css" must be a string or null.'],
    [
      'a missing field sent under a near-miss name',
      CreateTemplateBody,
      { name: 'n', htm: '<p/>' },
      'Missing required field "html" in the body; "htm" was sent, did you mean "html"?',
    ],
    ['a body that is not an object', PdfRequestBody, [], 'The body must be an object.'],
  ];
  for (const [name, schema, data, expected] of table) {
    it(name, () => assert.equal(messageFor(schema, data), expected));
  }

  it('describes query limits in words', () => {
    assert.equal(
      messageFor(ListQuery, { limit: '500' }, 'querystring'),
      'Field "limit" must be at most 100.',
    );
  });

  it('never passes Ajv phrasing through, for random bodies (property)', () => {
    const r = rng(20261123);
    const keys = Object.keys(PdfRequestBody.properties);
    for (let i = 0; i < 500; i++) {
      const data = randomJson(r, 0, keys);
      const validate = validatorCompiler({
        schema: PdfRequestBody as unknown as FastifySchema,
        httpPart: 'body',
        method: 'POST',
        url: '/x',
      }) as unknown as Validate;
      if (validate(data)) continue;
      const message = describeValidationError(validate.errors ?? [], 'body');
      assert.doesNotMatch(message, LIBRARY_PHRASING, `${JSON.stringify(data)} → ${message}`);
    }
  });
});

describe('didYouMean', () => {
  it('suggests near misses only', () => {
    const known = ['margins', 'format', 'template_id', 'css', 'metadata'];
    assert.equal(didYouMean('margin', known), 'margins');
    assert.equal(didYouMean('fromat', known), 'format');
    assert.equal(didYouMean('template-id', known), 'template_id');
    assert.equal(didYouMean('CSS', known), 'css');
    assert.equal(didYouMean('colour', known), null);
    assert.equal(didYouMean('x', known), null);
    assert.equal(didYouMean('m'.repeat(500), known), null);
  });
});
