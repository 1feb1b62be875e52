import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * A command's own flags (and, where it takes them, its positional arguments), parsed strictly: an
 * unknown or malformed flag throws, and main.ts answers it as a usage error.
 */
export function commandFlags<O extends Options, P extends boolean = false>(
  args: string[],
  options: O,
  allowPositionals?: P,
) {
  return parseArgs({ args, options, strict: true, allowPositionals: (allowPositionals ?? false) as P });
}
