/**
 * A minimal content-stream tokenizer: operators, with the operands BDC/BMC/Do need. pdf-lib's own
 * parseContentStream never returns on a stray ")" or "}" (its operator reader does not advance), so
 * a damaged stream would hang the check; this one moves at least one byte per token.
 */

/** An operand as the checks need it: names and numbers kept, a dictionary reduced to its /MCID. */
export type Operand =
  | { kind: 'name'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'dict'; mcid: number | undefined }
  | { kind: 'other' };

/** Text showing, path painting (not `n`, which only ends a clipping path), shadings, XObjects, inline images. */
export const PAINTING = new Set(`Tj TJ ' " S s f F f* B B* b b* sh Do BI`.split(' '));

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));
/** Keywords that are operands, not operators. */
const OPERAND_KEYWORDS = new Set(['true', 'false', 'null']);
/** Operands kept before an operator: BDC needs two; a long run of them is a damaged stream. */
const MAX_OPERANDS = 8;

function isRegular(byte: number | undefined): boolean {
  return byte !== undefined && !WHITESPACE.has(byte) && !DELIMITERS.has(byte);
}

/** The end of a run of regular characters starting at `start`. */
function regularEnd(bytes: Uint8Array, start: number): number {
  let end = start;
  while (end < bytes.length && isRegular(bytes[end])) end++;
  return end;
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

/** The end of a literal string whose "(" is at `start`: nested parentheses balance, "\" escapes a byte. */
function literalStringEnd(bytes: Uint8Array, start: number): number {
  let depth = 0;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x5c) i++;
    else if (byte === 0x28) depth++;
    else if (byte === 0x29 && --depth === 0) return i + 1;
  }
  return bytes.length;
}

function skipToLineEnd(bytes: Uint8Array, start: number): number {
  let i = start;
  while (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
  return i;
}

type Token =
  | { kind: 'open' | 'close' | 'string' }
  | { kind: 'name'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'keyword'; value: string };

/** The next token from `at`, and where the one after starts; undefined at the end of the bytes. */
function nextToken(bytes: Uint8Array, at: number): { token: Token; start: number; next: number } | undefined {
  let i = at;
  while (i < bytes.length) {
    const byte = bytes[i] as number;
    if (WHITESPACE.has(byte)) i++;
    else if (byte === 0x25) i = skipToLineEnd(bytes, i);
    else break;
  }
  if (i >= bytes.length) return undefined;
  const byte = bytes[i] as number;
  const pair = bytes[i + 1] === byte;
  if (byte === 0x28) return { start: i, token: { kind: 'string' }, next: literalStringEnd(bytes, i) };
  if (byte === 0x3c && pair) return { start: i, token: { kind: 'open' }, next: i + 2 };
  if (byte === 0x3e && pair) return { start: i, token: { kind: 'close' }, next: i + 2 };
  if (byte === 0x3c) {
    const end = bytes.indexOf(0x3e, i + 1);
    return { start: i, token: { kind: 'string' }, next: end < 0 ? bytes.length : end + 1 };
  }
  if (byte === 0x5b) return { start: i, token: { kind: 'open' }, next: i + 1 };
  if (byte === 0x5d) return { start: i, token: { kind: 'close' }, next: i + 1 };
  if (byte === 0x2f) {
    const end = regularEnd(bytes, i + 1);
    const value = latin1(bytes, i + 1, end).replace(/#([0-9A-Fa-f]{2})/g, (_, hex) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    return { start: i, token: { kind: 'name', value }, next: end };
  }
  if (!isRegular(byte)) return { start: i, token: { kind: 'keyword', value: '' }, next: i + 1 }; // a stray ) > { }
  const end = regularEnd(bytes, i);
  const text = latin1(bytes, i, end);
  const number = /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : undefined;
  return {
    start: i,
    token: number === undefined ? { kind: 'keyword', value: text } : { kind: 'number', value: number },
    next: end,
  };
}

/**
 * Skips a dictionary or array whose opening token was just read, noting the MCID of a dictionary
 * (the number after /MCID at its top level). Unclosed, it runs to the end of the bytes.
 */
function compositeOperand(bytes: Uint8Array, at: number): { operand: Operand; next: number } {
  let depth = 1;
  let mcid: number | undefined;
  let afterMcid = false;
  let i = at;
  while (depth > 0) {
    const read = nextToken(bytes, i);
    if (!read) break;
    i = read.next;
    const { token } = read;
    if (token.kind === 'open') depth++;
    else if (token.kind === 'close') depth--;
    if (afterMcid && token.kind === 'number' && depth === 1) mcid = token.value;
    afterMcid = depth === 1 && token.kind === 'name' && token.value === 'MCID';
  }
  return { operand: { kind: 'dict', mcid }, next: i };
}

/** After BI: past the image's data, which ends at "EI" between white space (or the stream's end). */
function inlineImageEnd(bytes: Uint8Array, at: number): number {
  let i = at;
  for (let read = nextToken(bytes, i); read; read = nextToken(bytes, i)) {
    i = read.next;
    if (read.token.kind === 'keyword' && read.token.value === 'ID') break;
  }
  for (i += 1; i + 1 < bytes.length; i++) {
    const ends = bytes[i] === 0x45 && bytes[i + 1] === 0x49;
    if (ends && WHITESPACE.has(bytes[i - 1] as number) && !isRegular(bytes[i + 2])) return i + 2;
  }
  return bytes.length;
}

interface Operation {
  operator: string;
  operands: Operand[];
  /** Where the operation starts (its first operand, else the operator) and where it ends, in bytes. */
  start: number;
  end: number;
}

/** The operators of a content stream in order, each with the operands before it (at most MAX_OPERANDS). */
export function* contentOperations(bytes: Uint8Array): Generator<Operation> {
  let operands: Operand[] = [];
  let start: number | undefined;
  let i = 0;
  for (let read = nextToken(bytes, i); read; read = nextToken(bytes, i)) {
    i = read.next;
    const { token } = read;
    start ??= read.start;
    if (token.kind === 'keyword' && !OPERAND_KEYWORDS.has(token.value)) {
      if (token.value === '') continue;
      if (token.value === 'BI') i = inlineImageEnd(bytes, i);
      yield { operator: token.value, operands, start, end: i };
      operands = [];
      start = undefined;
      continue;
    }
    let operand: Operand = { kind: 'other' };
    if (token.kind === 'open') {
      const composite = compositeOperand(bytes, i);
      i = composite.next;
      operand = composite.operand;
    } else if (token.kind === 'name' || token.kind === 'number') operand = token;
    if (operands.length >= MAX_OPERANDS) operands.shift();
    operands.push(operand);
  }
}
