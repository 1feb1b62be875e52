import { AppError } from './errors.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (whitespace allowed between characters): anything else says so, never a garbled file. */
export function decodeBase64(content: string, field = 'content_base64'): Buffer {
  const compact = content.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) {
    throw new AppError(
      'invalid_request',
      `${field} is not valid base64; encode the file bytes with standard base64.`,
      { field },
    );
  }
  return Buffer.from(compact, 'base64');
}
