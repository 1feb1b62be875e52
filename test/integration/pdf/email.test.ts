import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { pdfText } from '../../helpers/pdf.js';
import { randomJson, rng } from '../../helpers/random.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { type Refusal, type SmtpSink, startSmtpSink } from '../../helpers/smtp-sink.js';
import { waitFor } from '../../helpers/wait.js';

/** A real SMTP sink: 550 for bounce@…, one 451 for later@… then acceptance, everything else accepted. */
function startSink(): Promise<SmtpSink> {
  let deferred = false;
  return startSmtpSink((address): Refusal | null => {
    if (address.startsWith('bounce@')) return { code: 550, message: 'No such user' };
    if (address.startsWith('later@') && !deferred) {
      deferred = true;
      return { code: 451, message: 'Try again later' };
    }
    return null;
  });
}

/** The PDF attachment of a raw MIME message. */
function pdfAttachment(raw: string): Buffer {
  const part = raw.split(/\r?\n--/).find((p) => /Content-Type: application\/pdf/i.test(p));
  assert.ok(part, 'a PDF attachment');
  const body = part
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return Buffer.from(body.replace(/\s+/g, ''), 'base64');
}

describe('deliver.email', () => {
  let server: TestServer;
  let sink: SmtpSink;
  const clock = new ManualClock(Date.parse('2026-11-03T09:00:00Z'));
  before(async () => {
    sink = await startSink();
    server = await startTestServer(
      {
        workers: 1,
        smtpUrl: `smtp://127.0.0.1:${sink.port}`,
        smtpInsecure: true,
        smtpFrom: 'Quire <quire@localhost>',
      },
      { clock },
    );
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  const post = (key: string, body: unknown) => api(server.base, 'POST', '/v1/pdf', { key, body });
  const delivery = async (key: string, id: string) =>
    (await api(server.base, 'GET', `/v1/pdf/${id}`, { key })).json.delivery;
  const settle = async (key: string, id: string, status: string) =>
    waitFor(`delivery ${status}`, async () => {
      server.built.background.wake();
      const d = await delivery(key, id);
      return d?.email?.status === status ? d : null;
    });

  it('emails the finished PDF: it arrives in a real SMTP sink and the document shows sent', async () => {
    const t = await server.team('growth');
    const r = await post(t.live, {
      html: '<h1>Invoice {{ n }}</h1>',
      data: { n: 'A-17' },
      filename: 'invoice-a17',
      deliver: {
        email: { to: 'Customer@Example.com', subject: 'Your invoice', message: 'Hello <b>you</b>\nThanks' },
      },
    });
    assert.equal(r.status, 200);
    const id = r.headers.get('x-document-id') ?? '';
    await settle(t.live, id, 'sent');
    const mail = sink.messages.find((m) => m.to.includes('customer@example.com'));
    assert.ok(mail);
    assert.match(mail.raw, /Subject: Your invoice/);
    assert.match(mail.raw, /filename=invoice-a17\.pdf/);
    assert.match(mail.raw, /Hello &#60;b&#62;you&#60;\/b&#62;<br>Thanks/, 'the HTML part is escaped text');
    assert.match(await pdfText(pdfAttachment(mail.raw)), /Invoice A-17/);
  });

  it('async with deliver: queued on the record at once, sent after the background render', async () => {
    const t = await server.team('growth');
    const r = await post(t.live, {
      html: '<p>bg</p>',
      async: true,
      deliver: { email: { to: 'bg@example.com' } },
    });
    assert.equal(r.status, 202);
    assert.deepEqual(await delivery(t.live, r.json.id), { email: { status: 'queued' } });
    await settle(t.live, r.json.id, 'sent');
    const mail = sink.messages.find((m) => m.to.includes('bg@example.com'));
    assert.ok(mail);
    assert.match(mail.raw, /Subject: Your document document\.pdf/);
  });

  it('a permanent refusal (5xx) fails with send_failed and suppresses the address for the next email', async () => {
    const t = await server.team('growth');
    const first = await post(t.live, { html: '<p>1</p>', deliver: { email: { to: 'bounce@example.com' } } });
    const id = first.headers.get('x-document-id') ?? '';
    const failed = await settle(t.live, id, 'failed');
    assert.deepEqual(failed, { email: { status: 'failed', reason: 'send_failed' } });
    const second = await post(t.live, { html: '<p>2</p>', deliver: { email: { to: 'bounce@example.com' } } });
    assert.deepEqual(await delivery(t.live, second.headers.get('x-document-id') ?? ''), {
      email: { status: 'suppressed' },
    });
  });

  it('a temporary refusal (4xx) is retried later and then sent', async () => {
    const t = await server.team('growth');
    const r = await post(t.live, { html: '<p>later</p>', deliver: { email: { to: 'later@example.com' } } });
    const id = r.headers.get('x-document-id') ?? '';
    await waitFor('the first attempt', async () => {
      server.built.background.wake();
      const job = await server.built.services.db
        .selectFrom('jobs')
        .select(['status', 'attempts'])
        .where('kind', '=', 'email')
        .where('status', '=', 'queued')
        .where('attempts', '=', 1)
        .executeTakeFirst();
      return job ?? null;
    });
    assert.deepEqual(await delivery(t.live, id), { email: { status: 'queued' } });
    clock.advance(61_000);
    await settle(t.live, id, 'sent');
    assert.ok(sink.messages.some((m) => m.to.includes('later@example.com')));
  });

  it('an unstored PDF cannot be emailed: failed with not_stored (test key, binary, no Idempotency-Key)', async () => {
    const t = await server.team('growth');
    const r = await post(t.test, { html: '<p>t</p>', deliver: { email: { to: 'nostore@example.com' } } });
    assert.equal(r.status, 200);
    assert.deepEqual(await delivery(t.test, r.headers.get('x-document-id') ?? ''), {
      email: { status: 'failed', reason: 'not_stored' },
    });
  });

  it('refuses before rendering: email_not_verified, XRechnung with deliver, bad addresses', async () => {
    const unverified = await server.team('growth', { emailVerified: false });
    const r = await post(unverified.live, { html: '<p>x</p>', deliver: { email: { to: 'a@example.com' } } });
    assert.equal(r.status, 403);
    assert.equal(r.json.error.code, 'email_not_verified');
    const docs = await api(server.base, 'GET', '/v1/documents', { key: unverified.live });
    assert.equal(docs.json.data.length, 0, 'nothing rendered or recorded');
    const t = await server.team('growth');
    const xr = await post(t.live, {
      e_invoice: { standard: 'xrechnung-ubl', profile: 'xrechnung', invoice: {} },
      deliver: { email: { to: 'a@example.com' } },
    });
    assert.equal(xr.status, 400);
    assert.equal(xr.json.error.code, 'invalid_request');
    for (const email of [{ to: 'no-at-sign' }, { to: 'a@example.com', colour: 1 }, {}]) {
      const bad = await post(t.live, { html: '<p>x</p>', deliver: { email } });
      assert.equal(bad.status, 400, JSON.stringify(email));
      assert.equal(bad.json.error.code, 'invalid_request');
    }
  });

  it('refuses anything but one plain address in to and reply_to (display names, comments, groups, lists)', async () => {
    const t = await server.team('growth');
    const forms = ['<a@example.com>', 'a@example.com(1)', 'g:a@example.com;', 'a@example.com, b@example.com'];
    forms.push(
      '"Name" <a@example.com>',
      'a@example.com,b@example.com',
      'Name<a@example.com>',
      '"a b"@example.com',
    );
    for (const field of ['to', 'reply_to'] as const) {
      for (const form of forms) {
        const email = field === 'to' ? { to: form } : { to: 'ok@example.com', reply_to: form };
        const bad = await post(t.live, { html: '<p>x</p>', deliver: { email } });
        assert.equal(bad.status, 400, `${field}: ${form}`);
        assert.equal(bad.json.error.code, 'invalid_request', form);
        assert.equal(bad.json.error.details?.field, `deliver.email.${field}`, form);
      }
    }
    const batch = await api(server.base, 'POST', '/v1/batches', {
      key: t.live,
      body: {
        template_id: '00000000-0000-4000-8000-000000000000',
        items: [{ data: {} }, { data: {}, deliver: { email: { to: 'a@example.com(x)' } } }],
      },
    });
    assert.equal(batch.status, 400);
    assert.equal(batch.json.error.details?.field, 'items[1].deliver.email.to');
    const docs = await api(server.base, 'GET', '/v1/documents', { key: t.live });
    assert.equal(docs.json.data.length, 0, 'nothing rendered or recorded');
    const ok = await post(t.live, {
      html: '<p>ok</p>',
      deliver: { email: { to: " O'Brien+tag@Mail.Example.co.uk ", reply_to: 'Sales@Example.com' } },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    await settle(t.live, ok.headers.get('x-document-id') ?? '', 'sent');
    const mail = sink.messages.find((m) => m.to.includes("o'brien+tag@mail.example.co.uk"));
    assert.ok(mail, 'sent to the normalised address');
    assert.match(
      mail.raw,
      /Reply-To: Sales@example\.com/,
      'reply_to as given (nodemailer lower-cases the domain)',
    );
  });

  it('the per-address limit and the suppression list count the lower-cased address', async () => {
    const t = await server.team('growth');
    const first = await post(t.live, { html: '<p>1</p>', deliver: { email: { to: 'bounce@case.example' } } });
    await settle(t.live, first.headers.get('x-document-id') ?? '', 'failed');
    const upper = await post(t.live, { html: '<p>2</p>', deliver: { email: { to: 'BOUNCE@Case.Example' } } });
    assert.deepEqual(await delivery(t.live, upper.headers.get('x-document-id') ?? ''), {
      email: { status: 'suppressed' },
    });
    const other = await server.team('growth');
    for (let i = 0; i < 20; i++) {
      const to = i % 2 === 0 ? 'a@x.com' : 'A@X.com';
      const ok = await post(other.live, { html: `<p>${i}</p>`, deliver: { email: { to } } });
      assert.equal(ok.status, 200, `email ${i + 1}`);
    }
    const over = await post(other.live, { html: '<p>21</p>', deliver: { email: { to: 'A@X.com' } } });
    assert.equal(over.status, 429);
    assert.match(over.json.error.message, /same address \(a@x\.com\)/);
  });

  it('limits: the team budget per 24 hours and 20 a day per address (email_limit_reached, 429)', async () => {
    const free = await server.team('free');
    for (let i = 0; i < 10; i++) {
      const ok = await post(free.live, {
        html: `<p>${i}</p>`,
        deliver: { email: { to: `f${i}@example.com` } },
      });
      assert.equal(ok.status, 200);
    }
    const over = await post(free.live, { html: '<p>11</p>', deliver: { email: { to: 'f11@example.com' } } });
    assert.equal(over.status, 429);
    assert.equal(over.json.error.code, 'email_limit_reached');
    const growth = await server.team('growth');
    for (let i = 0; i < 20; i++) {
      const ok = await post(growth.live, {
        html: `<p>${i}</p>`,
        deliver: { email: { to: 'same@example.com' } },
      });
      assert.equal(ok.status, 200, `email ${i + 1}`);
    }
    const same = await post(growth.live, {
      html: '<p>21</p>',
      deliver: { email: { to: 'SAME@example.com' } },
    });
    assert.equal(same.status, 429);
    assert.match(same.json.error.message, /20 emails a day/);
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    const nextDay = await post(growth.live, {
      html: '<p>22</p>',
      deliver: { email: { to: 'same@example.com' } },
    });
    assert.equal(nextDay.status, 200, 'the window moved on');
  });

  it('property: random deliver bodies and Idempotency-Key values never cause a 5xx', async () => {
    const t = await server.team('scale');
    const r = rng(1310);
    const fields = ['to', 'subject', 'message', 'reply_to', 'cc'];
    for (let i = 0; i < 40; i++) {
      const email =
        r.next() < 0.5 ? randomJson(r, 1, fields) : { to: `p${i}@example.com`, subject: randomJson(r, 2) };
      const deliver = r.next() < 0.8 ? { email } : randomJson(r, 1, ['email']);
      const headers: Record<string, string> = {};
      if (r.next() < 0.5)
        headers['idempotency-key'] = String(randomJson(r, 3))
          .slice(0, 300)
          .replace(/[\r\n]/g, '');
      const res = await api(server.base, 'POST', '/v1/pdf', {
        key: t.test,
        body: { html: '<p>p</p>', deliver },
        headers,
      });
      assert.ok(res.status < 500, `${res.status} for ${JSON.stringify({ deliver, headers })}`);
      if (res.status === 400) assert.equal(res.json.error.code, 'invalid_request');
    }
  });
});

describe('deliver.email over smtp:// without STARTTLS', () => {
  let server: TestServer;
  let sink: SmtpSink;
  before(async () => {
    sink = await startSink();
    server = await startTestServer({ workers: 1, smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  it('sends nothing to a server that cannot upgrade: the email job fails with a STARTTLS error and retries', async () => {
    const t = await server.team('growth');
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<p>secret invoice</p>', deliver: { email: { to: 'customer@example.com' } } },
    });
    assert.equal(r.status, 200);
    const job = await waitFor('the first attempt', async () => {
      server.built.background.wake();
      const row = await server.built.services.db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'last_error'])
        .where('kind', '=', 'email')
        .where('attempts', '=', 1)
        .where('last_error', 'is not', null)
        .executeTakeFirst();
      return row ?? null;
    });
    assert.match(job.last_error ?? '', /STARTTLS/);
    assert.equal(job.status, 'queued', 'a temporary failure: retried later, the address is not suppressed');
    const id = r.headers.get('x-document-id') ?? '';
    const delivery = (await api(server.base, 'GET', `/v1/pdf/${id}`, { key: t.live })).json.delivery;
    assert.deepEqual(delivery, { email: { status: 'queued' } });
    assert.equal(sink.messages.length, 0, 'nothing reached the server in plain text');
  });
});
