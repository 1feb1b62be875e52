/**
 * Nesting depth of JSON text, measured before parsing. A body nested thousands of levels parses fine but
 * breaks every recursive step after it (JSON.stringify for size checks and storage throws RangeError), so
 * it is refused at the door with a message instead of failing later as a 500.
 */

/** Objects and arrays nested inside each other, the body itself counting as level 1 (docs/api-behaviours.md). */
export const MAX_JSON_DEPTH = 100;

export interface NestingExcess {
  /** The top-level field the excess is in, when the body is an object. */
  field: string | null;
}

/** Index of the quote closing the string that opens at `open`, or -1 when the text ends first. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

/** True when the next non-whitespace character after `from` is a colon (the string before it was a key). */
function followedByColon(text: string, from: number): boolean {
  const rest = /\S/g;
  rest.lastIndex = from;
  const next = rest.exec(text);
  return next?.[0] === ':';
}

/** The decoded key, shortened for a message; null when it is not valid JSON (the parser reports that). */
function decodeKey(literal: string): string | null {
  try {
    const key = JSON.parse(literal) as string;
    return key.length > 60 ? `${key.slice(0, 60)}…` : key;
  } catch {
    return null;
  }
}

/**
 * Returns where `text` first nests deeper than `max` levels, or null when it does not. Malformed JSON is
 * measured as far as it goes; the JSON parser reports its syntax errors afterwards.
 */
export function findExcessiveNesting(text: string, max: number = MAX_JSON_DEPTH): NestingExcess | null {
  let depth = 0;
  let field: string | null = null;
  // Only brackets and quotes matter; string contents are skipped with indexOf, so long HTML strings cost little.
  const structural = /[{}[\]"]/g;
  for (let match = structural.exec(text); match; match = structural.exec(text)) {
    const at = match.index;
    const char = match[0];
    if (char === '"') {
      const end = closingQuote(text, at);
      if (end === -1) return null;
      if (depth === 1 && followedByColon(text, end + 1)) field = decodeKey(text.slice(at, end + 1));
      structural.lastIndex = end + 1;
    } else if (char === '{' || char === '[') {
      depth++;
      if (depth > max) return { field };
    } else {
      depth--;
    }
  }
  return null;
}
