import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs script without declarations
import { referenceProblems } from '../../scripts/openapi-reference-lint.mjs';

const lint = referenceProblems as (document: unknown) => string[];

const COMPLETE = {
  tags: [{ name: 'Templates' }],
  paths: {
    '/templates': {
      post: {
        operationId: 'createTemplate',
        tags: ['Templates'],
        summary: 'Create a template',
        description:
          'Stores a Liquid template as version 1. Errors: [`invalid_request`](/docs/errors#invalid_request).',
        requestBody: {
          content: { 'application/json': { schema: {}, examples: { a: { summary: 'a', value: {} } } } },
        },
        responses: {},
      },
    },
  },
  components: {
    schemas: { Count: { type: 'integer', examples: [3] } },
  },
};

function variant(change: (operation: Record<string, unknown>) => void) {
  const document = structuredClone(COMPLETE);
  change(document.paths['/templates'].post as unknown as Record<string, unknown>);
  return document;
}

/** The reference lint (part of `npm run lint`) names what each new route lacks and how to add it. */
describe('the API reference lint', () => {
  it('passes a complete operation', () => {
    assert.deepEqual(lint(COMPLETE), []);
  });

  it('names an operation without a description, and says where and what to write', () => {
    const [problem, ...rest] = lint(variant((op) => delete op.description));
    assert.deepEqual(rest, []);
    assert.match(problem ?? '', /^POST \/templates: no description/);
    assert.match(problem ?? '', /operationId: 'createTemplate'/);
    assert.match(problem ?? '', /when to use it, and the errors it answers/);
  });

  it('wants the errors named, a summary, one known section and a body example', () => {
    assert.match(
      lint(variant((op) => (op.description = 'Stores a template as version 1 of it, for renders.'))).join(),
      /names no error code/,
    );
    assert.match(lint(variant((op) => delete op.summary)).join(), /no summary/);
    assert.match(
      lint(variant((op) => (op.tags = ['Misc']))).join(),
      /exactly one of the reference's sections \(Templates\)/,
    );
    assert.match(
      lint(variant((op) => (op.requestBody = { content: { 'application/json': { schema: {} } } }))).join(),
      /request body has no example\. Wrap its schema with withExamples/,
    );
  });

  it('refuses an example that does not match its schema', () => {
    const document = structuredClone(COMPLETE);
    document.components.schemas.Count.examples = ['three' as unknown as number];
    assert.match(
      lint(document).join(),
      /components\.schemas\.Count: its example does not match the schema \(\/ must be integer\)/,
    );
  });
});
