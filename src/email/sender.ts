import nodemailer from 'nodemailer';

/**
 * Sends one email. Over SMTP (config.smtpUrl) when configured, otherwise the message is logged instead,
 * so a self-hosted install without SMTP still shows what would have been sent. Reused by deliver.email.
 */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export type SendResult = { ok: true; transport: 'smtp' | 'log' } | { ok: false; error: string };

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
  from: string;
  log: EmailLog;
}): EmailSender {
  if (!options.smtpUrl) return logOnlySender(options.log);
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(message) {
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          replyTo: message.replyTo,
          attachments: message.attachments,
        });
        return { ok: true, transport: 'smtp' };
      } catch (err) {
        // The SMTP URL may hold a password: log the error text only.
        const error = err instanceof Error ? err.message : String(err);
        options.log.warn({ to: message.to, error }, 'email send failed');
        return { ok: false, error };
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
