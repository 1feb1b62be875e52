import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { createEmailSender } from '../../../src/email/sender.js';

describe('email sender', () => {
  const messages: string[] = [];
  let server: SMTPServer;
  let port = 0;

  before(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          messages.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const log = { info: () => {}, warn: () => {} };

  it('refuses to send over smtp:// to a server without STARTTLS unless QUIRE_SMTP_INSECURE is set', async () => {
    const sender = createEmailSender({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Quire <quire@localhost>',
      log,
    });
    const result = await sender.send({ to: 'owner@example.com', subject: 'Plain text?', text: 'No.' });
    sender.close();
    assert.ok(!result.ok);
    assert.match(result.error, /STARTTLS/);
    assert.equal(
      result.permanent,
      false,
      "the server's setup, not the recipient: the address is not suppressed",
    );
    assert.equal(messages.length, 0, 'nothing reached the sink');
  });

  it('sends over SMTP when configured (a local sink without STARTTLS: QUIRE_SMTP_INSECURE)', async () => {
    const sender = createEmailSender({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      smtpInsecure: true,
      from: 'Quire <quire@localhost>',
      log,
    });
    const result = await sender.send({
      to: 'owner@example.com',
      subject: 'Webhook endpoint disabled',
      text: 'It failed for 24 hours.',
    });
    sender.close();
    assert.deepEqual(result, { ok: true, transport: 'smtp' });
    assert.equal(messages.length, 1);
    assert.match(messages[0] ?? '', /Subject: Webhook endpoint disabled/);
    assert.match(messages[0] ?? '', /To: owner@example.com/);
  });

  it('logs instead when no SMTP server is configured, and reports SMTP failures as values', async () => {
    const lines: string[] = [];
    const logged = createEmailSender({
      smtpUrl: null,
      from: 'x@localhost',
      log: { info: (_o, m) => lines.push(m), warn: () => {} },
    });
    assert.deepEqual(await logged.send({ to: 'a@example.com', subject: 's', text: 't' }), {
      ok: true,
      transport: 'log',
    });
    assert.equal(lines.length, 1);
    const broken = createEmailSender({ smtpUrl: 'smtp://127.0.0.1:1', from: 'x@localhost', log });
    const failed = await broken.send({ to: 'a@example.com', subject: 's', text: 't' });
    broken.close();
    assert.equal(failed.ok, false);
  });
});
