// saxonjs-he ships no type declarations: the parts of its API Quire calls (see its documentation).
declare module 'saxonjs-he' {
  interface TransformOptions {
    stylesheetInternal: unknown;
    stylesheetBaseURI?: string;
    /** Documents doc()/document() read, by absolute URI, instead of loading them. */
    documentPool?: Record<string, unknown>;
    sourceNode?: unknown;
    destination: 'raw' | 'serialized' | 'document';
  }
  interface XPathOptions {
    params?: Record<string, unknown>;
    resultForm?: 'default' | 'array' | 'iterator' | 'xdm';
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'sync'): { principalResult: unknown };
    XPath: { evaluate(expression: string, context: unknown, options?: XPathOptions): unknown };
  };
  export default SaxonJS;
}
