// saxen ships no type declarations: the part of its API batches/xlsx-unpack.ts and brand/svg-tree.ts use.
declare module 'saxen' {
  export class Parser {
    constructor(options?: { proxy?: boolean });
    on(
      event: 'openTag',
      handler: (
        name: string,
        attrs: () => Record<string, string>,
        decode: (s: string) => string,
        selfClosing: boolean,
      ) => void,
    ): this;
    on(
      event: 'closeTag',
      handler: (name: string, decode: (s: string) => string, selfClosing: boolean) => void,
    ): this;
    on(event: 'text' | 'cdata', handler: (text: string, decode: (s: string) => string) => void): this;
    on(event: 'error' | 'warn', handler: (err: Error) => void): this;
    parse(xml: string): Error | undefined;
  }
}
