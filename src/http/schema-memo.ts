/**
 * One compiled function per distinct schema and compiler in a process. Fastify hands each app instance its own
 * copies of the route schemas, so the compilers' own caches (keyed by the schema object) miss for every app
 * after the first; several apps in one process (the tests' servers, a worker beside an API) compiled every
 * schema again. Schemas are plain JSON data, so their text is a safe key: equal text compiles to an equal
 * function.
 */
export class SchemaMemo<T> {
  readonly #compiled = new Map<string, T>();

  constructor(private readonly compile: (schema: object) => T) {}

  get(schema: object): T {
    const key = JSON.stringify(schema);
    let compiled = this.#compiled.get(key);
    if (compiled === undefined) {
      compiled = this.compile(schema);
      this.#compiled.set(key, compiled);
    }
    return compiled;
  }
}
