import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Endpoint secrets at rest. They are needed in clear to sign every delivery, so they are encrypted
 * (AES-256-GCM), never hashed; the key is derived from the server secret and never stored
 * (spec: Webhook endpoints, "secrets recoverable only by the server").
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * `purpose` separates the keys of different secrets (HKDF info): a sealed webhook secret cannot be opened
 * as a certificate's private key, or the other way round.
 */
export function createSecretBox(serverSecret: Buffer, purpose = 'quire webhook secrets v1'): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), purpose, 32));
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed) {
      const [version, data] = sealed.split(':', 2);
      if (version !== VERSION || !data) throw new Error('sealed secret: unknown format');
      const raw = Buffer.from(data, 'base64');
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
