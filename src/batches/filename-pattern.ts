import { AppError } from '../shared/errors.js';

/**
 * `filename_pattern` (spec: POST /batches; syntax ours, see README): literal text with `{{ name }}`
 * placeholders. `{{ index }}` is the item's index (0-based, as in the Batch item); anything else is a
 * dotted path into the item's data (`{{ customer.name }}`, `{{ number }}`). Strings,
 * numbers and booleans print as text; a missing, null, object or list value prints nothing. The result is
 * cut to 100 characters and then sanitised like `filename` (sanitizeFilename).
 */
export type PatternPart = { kind: 'text'; text: string } | { kind: 'path'; path: readonly string[] };

export interface FilenamePattern {
  parts: readonly PatternPart[];
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const PATH = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
/** Spec: filename, 100 characters. */
export const MAX_FILENAME_CHARS = 100;

/** Parses the pattern once per batch; an unusable one is `invalid_request` saying what is wrong. */
export function parseFilenamePattern(pattern: string): FilenamePattern {
  const parts: PatternPart[] = [];
  let last = 0;
  for (const match of pattern.matchAll(PLACEHOLDER)) {
    const start = match.index ?? 0;
    if (start > last) parts.push(text(pattern.slice(last, start)));
    const name = match[1] ?? '';
    if (!PATH.test(name)) {
      throw new AppError(
        'invalid_request',
        `filename_pattern: "{{ ${name} }}" is not a placeholder; use {{ index }} or a dotted data path such as {{ customer.name }}.`,
      );
    }
    parts.push({ kind: 'path', path: name.split('.') });
    last = start + match[0].length;
  }
  if (last < pattern.length) parts.push(text(pattern.slice(last)));
  return { parts };
}

function text(value: string): PatternPart {
  if (value.includes('{{') || value.includes('}}')) {
    throw new AppError(
      'invalid_request',
      'filename_pattern has an unbalanced "{{" or "}}"; write placeholders as {{ name }}.',
    );
  }
  return { kind: 'text', text: value };
}

/** The item's file name before sanitising, at most 100 characters. */
export function renderFilename(
  pattern: FilenamePattern,
  data: Record<string, unknown>,
  index: number,
): string {
  const out = pattern.parts.map((part) =>
    part.kind === 'text' ? part.text : valueAt(part.path, data, index),
  );
  return out.join('').slice(0, MAX_FILENAME_CHARS);
}

function valueAt(path: readonly string[], data: Record<string, unknown>, index: number): string {
  if (path.length === 1 && path[0] === 'index') return String(index);
  let value: unknown = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return '';
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';
}

/**
 * Names inside one ZIP are unique: a repeated name gets `-2`, `-3`, … before its extension, compared
 * case-insensitively (so the ZIP unpacks the same on case-insensitive file systems).
 */
export function uniqueNames(): (name: string) => string {
  const taken = new Set<string>();
  return (name) => {
    const dot = name.lastIndexOf('.');
    const base = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  };
}
