// The API reference's own rules, checked on the OpenAPI document the server serves; part of
// `npm run lint` through scripts/openapi-lint.mjs. Each problem says what to add and where, because the
// rules apply to every new route: a reader of /docs must learn from each operation what it does, when to
// use it and which errors it answers, and see an example of every request body.

import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const WHERE = (operationId) => `in the route's schema (grep -rn "operationId: '${operationId}'" src/)`;

/** An operation's problems, each a sentence that tells how to fix it. */
function operationProblems(label, operation, sections) {
  const problems = [];
  const id = operation.operationId;
  if (!id) return [`${label}: no operationId. Add \`operationId: 'verbNoun'\` to the route's schema.`];
  const where = WHERE(id);
  if (!operation.summary?.trim())
    problems.push(`${label}: no summary. Add \`summary\` (one line: what it does) ${where}.`);
  const description = operation.description?.trim() ?? '';
  if (description.length < 40) {
    problems.push(
      `${label}: no description (or under 40 characters). Add \`description\` ${where}: what it does, when to use it, and the errors it answers, e.g. "… Errors: \`invalid_request\` (details.field names the field), \`template_not_found\`."`,
    );
  } else if (!description.includes('/docs/errors#')) {
    problems.push(
      `${label}: the description names no error code. End it with the errors it answers, each code in backticks (e.g. "Errors: \`invalid_request\`, \`document_not_found\`."); codes of src/shared/errors.ts become links to /docs/errors.`,
    );
  }
  const tags = operation.tags ?? [];
  if (tags.length !== 1 || !sections.includes(tags[0])) {
    problems.push(
      `${label}: tags ${JSON.stringify(tags)}; give it exactly one of the reference's sections (${sections.join(', ')}) as \`tags: ['…']\` ${where}, or add a new section to src/docs/tags.ts.`,
    );
  }
  for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
    if (!media.examples && media.example === undefined) {
      problems.push(
        `${label}: the ${type} request body has no example. Wrap its schema with withExamples(schema, { name: { summary, value } }) (src/http/openapi.ts) ${where}; test/integration/client/examples.test.ts sends every example to a real server.`,
      );
    }
  }
  return problems;
}

/** Every problem of the document; empty when the reference is complete. */
export function referenceProblems(document) {
  const sections = (document.tags ?? []).map((tag) => tag.name);
  const problems = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation)
        problems.push(...operationProblems(`${method.toUpperCase()} ${path}`, operation, sections));
    }
  }
  return [...problems, ...exampleProblems(document)];
}

/**
 * Examples of named schemas (src/docs/response-examples.ts) that do not match their schema, as the server's
 * own validator (Ajv) reads it.
 */
export function exampleProblems(document) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'quire-openapi', components: document.components ?? {} });
  const problems = [];
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    for (const example of schema.examples ?? []) {
      const validate = ajv.getSchema(`quire-openapi#/components/schemas/${name}`);
      if (validate && !validate(example)) {
        const errors = validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
        problems.push(
          `components.schemas.${name}: its example does not match the schema (${errors}); fix it in src/docs/response-examples.ts.`,
        );
      }
    }
  }
  return problems;
}
