/**
 * `data:` URLs read the way resvg reads an image's href (the data-url crate, after the Fetch Standard's
 * data: URL processor), so what is checked is what resvg would decode, however the URL is spelled:
 * leading and trailing C0 controls and spaces are trimmed, tabs and newlines ignored (even inside
 * `data:`), the body percent-decoded up to a `#`, then base64-decoded when the header ends in `;base64`.
 */

const TAB_OR_NEWLINE = /[\t\n\r]/g;
const SCHEME = 'data:';
const BASE64_SUFFIX = /; *base64$/i;
const ASCII_WHITESPACE = /[\t\n\f\r ]/g;
const BASE64 = /^[A-Za-z0-9+/]*$/;

/** `value` without the C0 controls and spaces at either end (what the URL parser trims). */
function trimC0OrSpace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  return value.slice(start, end);
}

/** What follows `data:`, or null when the value is not a data: URL. */
function afterScheme(value: string): string | null {
  const input = trimC0OrSpace(value);
  let matched = 0;
  let at = 0;
  while (matched < SCHEME.length && at < input.length) {
    const char = input[at] as string;
    at += 1;
    if (char === '\t' || char === '\n' || char === '\r') continue;
    if (char.toLowerCase() !== SCHEME[matched]) return null;
    matched += 1;
  }
  return matched === SCHEME.length ? input.slice(at) : null;
}

export function isDataUrl(value: string): boolean {
  return afterScheme(value) !== null;
}

/** Percent-decodes `body` as bytes, skipping tabs and newlines and stopping at the fragment (`#`). */
function percentDecode(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  const out = Buffer.alloc(bytes.length);
  let length = 0;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at] as number;
    if (byte === 0x23) break;
    if (byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    const hex = byte === 0x25 ? bytes.toString('latin1', at + 1, at + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      out[length++] = Number.parseInt(hex, 16);
      at += 2;
    } else out[length++] = byte;
  }
  return out.subarray(0, length);
}

/** The infra standard's forgiving-base64 decode: null where it fails (resvg then decodes nothing). */
function forgivingBase64(encoded: Buffer): Buffer | null {
  let text = encoded.toString('latin1').replace(ASCII_WHITESPACE, '');
  if (text.length % 4 === 0) text = text.replace(/==?$/, '');
  if (text.length % 4 === 1 || !BASE64.test(text)) return null;
  return Buffer.from(text, 'base64');
}

/** The bytes a data: URL holds, or null when it is not one resvg could decode (no comma, bad base64). */
export function decodeDataUrl(value: string): Buffer | null {
  const rest = afterScheme(value);
  if (rest === null) return null;
  const comma = rest.indexOf(',');
  const fragment = rest.indexOf('#');
  if (comma < 0 || (fragment >= 0 && fragment < comma)) return null;
  const header = rest.slice(0, comma).replace(TAB_OR_NEWLINE, '').trim();
  const body = percentDecode(rest.slice(comma + 1));
  return BASE64_SUFFIX.test(header) ? forgivingBase64(body) : body;
}
