import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { SchemaMemo } from './schema-memo.js';
import { deferCompile } from './schema-warm-up.js';

const serializers = new SchemaMemo((schema) => fastJson(schema as Parameters<typeof fastJson>[0]));

/**
 * Fastify's own serializer compiler (fast-json-stringify, no shared schemas: none are added), but each
 * route's response schema is compiled on its first response instead of at start: compiling every status of
 * every route was a large share of the server's start-up.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  let serialize: ((data: unknown) => string) | undefined;
  deferCompile(method, url, () => {
    serialize ??= serializers.get(schema as object);
  });
  return (data) => {
    serialize ??= serializers.get(schema as object);
    return serialize(data);
  };
};
