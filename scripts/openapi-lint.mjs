#!/usr/bin/env node
// Writes the OpenAPI document the server serves (GET /v1/openapi.json) to a file for `redocly lint`
// (package.json `lint:openapi`; redocly.yaml), and checks that the TypeScript client's generated types
// (clients/typescript/src/schema.d.ts) match the document, and the reference's own rules
// (scripts/openapi-reference-lint.mjs: a description, summary and section on every operation, an example on every
// request body).
// Usage: node scripts/openapi-lint.mjs OUT.json           check the client types (part of `npm run lint`)
//        node scripts/openapi-lint.mjs OUT.json --write   regenerate clients/typescript/src/schema.d.ts
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { referenceProblems } from './openapi-reference-lint.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const typesFile = path.join(root, 'clients/typescript/src/schema.d.ts');
const write = process.argv.includes('--write');

function run(command, args) {
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (result.error) throw result.error;
  return result;
}

/** The client's types for the document, as openapi-typescript writes them. */
async function generatedTypes(document) {
  return `${COMMENT_HEADER}${astToString(await openapiTS(document))}`;
}

const out = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
if (!out) {
  console.error('Usage: node scripts/openapi-lint.mjs OUT.json [--write]');
  process.exit(2);
}
const docFile = path.resolve(root, out);
mkdirSync(path.dirname(docFile), { recursive: true });
const dump = run(process.execPath, ['--import', 'tsx', 'scripts/openapi-dump.mjs', docFile]);
if (dump.status !== 0) throw new Error(`openapi-dump failed:\n${dump.stderr}`);
const document = JSON.parse(readFileSync(docFile, 'utf8'));
const problems = referenceProblems(document);
if (problems.length > 0) {
  console.error(
    `The API reference (/docs) is incomplete — ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  );
  process.exitCode = 1;
}
const types = await generatedTypes(document);
if (write) writeFileSync(typesFile, types);
else if (readFileSync(typesFile, 'utf8') !== types) {
  console.error('clients/typescript/src/schema.d.ts is not the current document: run npm run openapi:client');
  process.exitCode = 1;
}
