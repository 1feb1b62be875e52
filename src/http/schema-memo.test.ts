import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { SchemaMemo } from './schema-memo.js';
import { validatorCompiler } from './validator.js';

describe('SchemaMemo: one compile per distinct schema in a process', () => {
  it('compiles equal schemas (separate objects) once, and different ones each', () => {
    let compiles = 0;
    const memo = new SchemaMemo((schema) => {
      compiles += 1;
      return JSON.stringify(schema);
    });
    const a = memo.get({ type: 'object', properties: { n: { type: 'integer' } } });
    const b = memo.get({ type: 'object', properties: { n: { type: 'integer' } } });
    assert.equal(a, b);
    memo.get({ type: 'object', properties: { n: { type: 'string' } } });
    assert.equal(compiles, 2);
  });

  it('two apps with the same route, its validator compiled once, each answer their own request and errors', async () => {
    const body = Type.Object({ n: Type.Integer() }, { additionalProperties: false });
    const apps = [Fastify(), Fastify()];
    for (const app of apps) {
      app.setValidatorCompiler(validatorCompiler);
      app.post('/n', { schema: { body } }, async (req) => req.body);
    }
    const [first, second] = await Promise.all(
      apps.map((app, i) =>
        app.inject({ method: 'POST', url: '/n', payload: i === 0 ? { n: 1 } : { n: 'one' } }),
      ),
    );
    assert.equal(first?.statusCode, 200);
    assert.deepEqual(first?.json(), { n: 1 });
    assert.equal(second?.statusCode, 400);
    assert.match(second?.json().message, /integer/);
    await Promise.all(apps.map((app) => app.close()));
  });
});
