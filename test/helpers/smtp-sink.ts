import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the sink accepted: its envelope recipients and the raw MIME text. */
export interface Mail {
  to: string[];
  raw: string;
}

/** An SMTP answer refusing a recipient, e.g. 550 (permanent) or 451 (try again later). */
export interface Refusal {
  code: number;
  message: string;
}

export interface SmtpSink {
  port: number;
  messages: Mail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (plain SMTP: no STARTTLS offered, no login needed) that keeps every message it
 * accepts. `refuse` may answer a recipient with an SMTP error instead (bounces and deferrals).
 */
export async function startSmtpSink(
  refuse: (address: string) => Refusal | null = () => null,
): Promise<SmtpSink> {
  const messages: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      const refusal = refuse(address.address);
      if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
