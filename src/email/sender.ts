import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { newId } from '../shared/ids.js';

/**
 * Sends one email. Over SMTP (config.smtpUrl) when configured; otherwise the message is written as an
 * `.eml` file into the outbox directory (or only logged when there is none), so a self-hosted install
 * without SMTP still shows what would have been sent. Used by deliver.email and the endpoint notices.
 */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative made by Quire (never HTML from a caller). */
  html?: string;
  replyTo?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export type SendResult =
  | { ok: true; transport: 'smtp' | 'file' | 'log' }
  /** `permanent`: the server refused for good (5xx); otherwise (4xx, connection trouble) a retry may work. */
  | { ok: false; error: string; permanent: boolean };

export interface EmailSender {
  send(message: EmailMessage): Promise<SendResult>;
  close(): void;
}

/** The subset of a logger the sender needs (pino and Fastify's logger fit). */
export interface EmailLog {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export function createEmailSender(options: {
  smtpUrl: string | null;
  /**
   * QUIRE_SMTP_INSECURE: let an smtp:// server go without STARTTLS (a local sink only). Otherwise a
   * server that cannot upgrade the connection gets nothing: no message and no password in plain text.
   */
  smtpInsecure?: boolean;
  from: string;
  log: EmailLog;
  /** Without SMTP: where `.eml` files are written (e.g. <data dir>/outbox). */
  outboxDir?: string;
}): EmailSender {
  if (!options.smtpUrl) {
    return options.outboxDir
      ? fileSender(options.outboxDir, options.from, options.log)
      : logOnlySender(options.log);
  }
  const smtpUrl = options.smtpUrl;
  const insecure = options.smtpInsecure === true;
  const transport = lazyTransport(async () => smtpOptions(smtpUrl, insecure));
  return {
    async send(message) {
      try {
        await (await transport.get()).sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          replyTo: message.replyTo,
          attachments: message.attachments,
        });
        return { ok: true, transport: 'smtp' };
      } catch (err) {
        // The SMTP URL may hold a password: log the error text only.
        const error = err instanceof Error ? err.message : String(err);
        options.log.warn({ to: message.to, error }, 'email send failed');
        return { ok: false, error, permanent: isPermanent(err) };
      }
    },
    close: () => transport.close(),
  };
}

function logOnlySender(log: EmailLog): EmailSender {
  return {
    async send(message) {
      log.info(
        { to: message.to, subject: message.subject, text: message.text },
        'email not sent (no SMTP configured)',
      );
      return { ok: true, transport: 'log' };
    },
    close: () => {},
  };
}

/**
 * An SMTP reply code of 5xx is a permanent refusal; 4xx and connection errors are temporary. A failed
 * STARTTLS (ETLS) is the server's setup, not the recipient's: temporary, and the address is not suppressed.
 */
function isPermanent(err: unknown): boolean {
  const { responseCode, code } = (err ?? {}) as { responseCode?: unknown; code?: unknown };
  if (code === 'ETLS') return false;
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}

/**
 * The connection options of QUIRE_SMTP_URL. smtps:// is TLS from the start; smtp:// must upgrade with
 * STARTTLS (nodemailer's requireTLS, set after the URL's own options so a `?ignoreTLS=true` in the URL
 * cannot turn it off) unless the operator opted out with QUIRE_SMTP_INSECURE=1.
 */
async function smtpOptions(url: string, insecure: boolean): Promise<SMTPTransport.Options> {
  const { parseConnectionUrl } = await import('nodemailer/lib/shared');
  const options: SMTPTransport.Options = parseConnectionUrl(url);
  if (options.secure || insecure) return options;
  return { ...options, requireTLS: true, ignoreTLS: false, opportunisticTLS: false };
}

/** No SMTP server: each message becomes an .eml file a newcomer can open in any mail program. */
function fileSender(dir: string, from: string, log: EmailLog): EmailSender {
  const transport = lazyTransport(async () => ({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    async send(message) {
      try {
        const info = await (await transport.get()).sendMail({ from, ...message });
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`);
        writeFileSync(file, info.message as Buffer, { mode: 0o600 });
        log.info(
          { to: message.to, subject: message.subject, file },
          'email written to the outbox (no SMTP configured)',
        );
        return { ok: true, transport: 'file' };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err), permanent: false };
      }
    },
    close: () => transport.close(),
  };
}

/** nodemailer loads with the first email, not at every start (most renders send none). */
function lazyTransport(
  options: () => Promise<SMTPTransport.Options | { streamTransport: true; buffer: true; newline: 'unix' }>,
) {
  let transport: Promise<Transporter> | undefined;
  return {
    get(): Promise<Transporter> {
      transport ??= Promise.all([import('nodemailer'), options()]).then(
        ([m, o]) => m.default.createTransport(o) as Transporter,
      );
      return transport;
    },
    /** Closes the pool if one was made; nothing to close before the first email. */
    close(): void {
      void transport?.then((t) => t.close());
    },
  };
}
