import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRouteSchemas, deferCompile } from './schema-warm-up.js';

describe('schema warm-up', () => {
  it('runs the compile steps of POST /v1/pdf once, on request, and keeps none of other routes', () => {
    const ran: string[] = [];
    deferCompile('POST', '/v1/pdf', () => ran.push('body'));
    deferCompile(['POST'], '/v1/pdf', () => ran.push('200'));
    deferCompile('GET', '/v1/pdf', () => ran.push('other method'));
    deferCompile('POST', '/v1/templates', () => ran.push('other route'));
    deferCompile(undefined, undefined, () => ran.push('no route'));
    assert.deepEqual(ran, []);
    compileRouteSchemas('post', '/v1/pdf');
    compileRouteSchemas('GET', '/v1/pdf');
    compileRouteSchemas('POST', '/v1/templates');
    assert.deepEqual(ran, ['body', '200']);
    compileRouteSchemas('POST', '/v1/pdf');
    assert.deepEqual(ran, ['body', '200']);
  });
});
