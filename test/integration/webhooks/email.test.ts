import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmailSender } from '../../../src/email/sender.js';
import { type SmtpSink, startSmtpSink } from '../../helpers/smtp-sink.js';

describe('email sender', () => {
  let sink: SmtpSink;
  before(async () => {
    sink = await startSmtpSink();
  });
  after(() => sink.close());

  const log = { info: () => {}, warn: () => {} };

  it('refuses to send over smtp:// to a server without STARTTLS unless QUIRE_SMTP_INSECURE is set', async () => {
    const sender = createEmailSender({
      smtpUrl: `smtp://127.0.0.1:${sink.port}`,
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
    assert.equal(sink.messages.length, 0, 'nothing reached the sink');
  });

  it('sends over SMTP when configured (a local sink without STARTTLS: QUIRE_SMTP_INSECURE)', async () => {
    const sender = createEmailSender({
      smtpUrl: `smtp://127.0.0.1:${sink.port}`,
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
    assert.equal(sink.messages.length, 1);
    assert.match(sink.messages[0]?.raw ?? '', /Subject: Webhook endpoint disabled/);
    assert.match(sink.messages[0]?.raw ?? '', /To: owner@example.com/);
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
