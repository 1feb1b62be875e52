import { childElements, type XmlNode } from './xml-dom.js';

/**
 * Reading a received invoice by element local names (`'cac:Party/cbc:EndpointID'` style paths, the
 * prefix ignored: CII and UBL element names are unique within their parents). The syntax was checked
 * from the root's namespace before any of these run.
 */
function localOf(step: string): string {
  const colon = step.indexOf(':');
  return colon === -1 ? step : step.slice(colon + 1);
}

/** Every element at the end of `path` below `node`. */
export function all(node: XmlNode | undefined, path: string): XmlNode[] {
  let current: XmlNode[] = node ? [node] : [];
  for (const step of path.split('/')) {
    const name = localOf(step);
    current = current.flatMap((n) => childElements(n).filter((c) => c.localName === name));
  }
  return current;
}

export function at(node: XmlNode | undefined, path: string): XmlNode | undefined {
  return all(node, path)[0];
}

/** Trimmed text of the first element at `path`; undefined when absent or empty. */
export function text(node: XmlNode | undefined, path: string): string | undefined {
  const value = at(node, path)?.textContent?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function attr(node: XmlNode | undefined, path: string, name: string): string | undefined {
  const value = at(node, path)?.getAttribute(name)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** A JSON object without its undefined (and empty-object) members: what the request model leaves out. */
export function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[key] = v;
  }
  return out as Partial<T>;
}

/**
 * The text at each of `paths` below `node`, under the same names, without the absent ones: one field of the
 * model per element, which is how most of an address or a contact reads in either syntax.
 */
export function textsAt<K extends string>(
  node: XmlNode | undefined,
  paths: Record<K, string>,
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of Object.keys(paths) as K[]) {
    const value = text(node, paths[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A billing period needs both ends: one end alone is left out, with a warning that says so. */
export function periodOf(start: string | undefined, end: string | undefined, warnings: string[]) {
  if (start && end) return { start, end };
  if (start || end)
    warnings.push("The invoice period has only one end; Quire's billing_period needs both and was left out.");
  return undefined;
}

/** A decimal as the model takes it: the document's digits, without a leading '+' or trailing zeros. */
export function decimal(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.replace(/^\+/, '');
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}

/** CII's format 102 date (YYYYMMDD) as YYYY-MM-DD. */
export function date102(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : value;
}
