/**
 * Paths of the objects in a render's data, written only with words the template itself contains
 * (spec "Warning": warnings name template fields, never user data). A data key the template does
 * not spell — say a customer name used as a dictionary key — becomes `[]`, like a list index.
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*\??$/;
const WORD = /[A-Za-z_][A-Za-z0-9_-]*\??/g;
const QUOTED = /"([^"]*)"|'([^']*)'/g;

/** `a` + `b` → `a.b`; a key that is not an identifier is bracketed: `a["first name"]`. */
export function appendKey(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Identifiers and quoted strings of the template source: the only text a path may repeat. */
export function templateWords(source: string): ReadonlySet<string> {
  const words = new Set<string>();
  for (const m of source.matchAll(WORD)) words.add(m[0]);
  for (const m of source.matchAll(QUOTED)) words.add(m[1] ?? m[2] ?? '');
  return words;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function childPath(parentPath: string, parent: object, key: string, words: ReadonlySet<string>): string {
  if (Array.isArray(parent)) return `${parentPath}[]`;
  return words.has(key) ? appendKey(parentPath, key) : `${parentPath}[]`;
}

/**
 * Maps every object and array in `data` to its normalised path (`items[]` for each line item).
 * Iterative, so deeply nested JSON cannot overflow the stack; the first path to reach an object wins.
 */
export function buildDataPaths(data: object, words: ReadonlySet<string>): WeakMap<object, string> {
  const paths = new WeakMap<object, string>();
  paths.set(data, '');
  const stack: Array<[object, string]> = [[data, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop() as [object, string];
    for (const [key, child] of Object.entries(node)) {
      if (!isContainer(child) || paths.has(child)) continue;
      const next = childPath(path, node, key, words);
      paths.set(child, next);
      stack.push([child, next]);
    }
  }
  return paths;
}
