import type { Role } from '../../../src/accounts/auth-context.js';
import type { Config } from '../../../src/config/config.js';
import { hashPassword } from '../../../src/users/passwords.js';
import { createUser, upsertMembership } from '../../../src/users/users.js';
import { type ApiResponse, api, startTestServer, type TestServer } from '../../helpers/server.js';
import { type SmtpSink, startSmtpSink } from '../../helpers/smtp-sink.js';

/** Helpers of the dashboard tests: a server with an SMTP sink, users made directly, and a cookie-carrying client. */

/** A test server whose email goes to a fresh SMTP sink (plain SMTP: the STARTTLS requirement is waived). */
export async function startServerWithSink(
  overrides: Partial<Config> = {},
): Promise<{ server: TestServer; sink: SmtpSink; close(): Promise<void> }> {
  const sink = await startSmtpSink();
  const server = await startTestServer({
    smtpUrl: `smtp://127.0.0.1:${sink.port}`,
    smtpInsecure: true,
    smtpFrom: 'Quire <quire@localhost>',
    ...overrides,
  });
  return {
    server,
    sink,
    async close() {
      await server.close();
      await sink.close();
    },
  };
}

/** The decoded subject and the token of the dashboard link in a raw message. */
export function readMail(raw: string): { subject: string; link: string; token: string } {
  const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const subject = /^Subject: (.*)$/m.exec(unfolded)?.[1]?.trim() ?? '';
  const link = /^(https?:\/\/\S+\/app\/#\/auth\/\S+)$/m.exec(unfolded)?.[1] ?? '';
  const token = decodeURIComponent(/token=([^\s&]+)/.exec(link)?.[1] ?? '');
  return { subject, link, token };
}

export const PASSWORD = 'correct horse battery';

/** A user with a password and a role in the team, made directly in the database. */
export async function makeUser(
  server: TestServer,
  teamId: string,
  role: Role,
  email: string,
  password = PASSWORD,
): Promise<{ id: string; email: string }> {
  const { db, clock } = server.built.services;
  const user = await createUser(db, clock, { email, passwordHash: await hashPassword(password) });
  await upsertMembership(db, clock, { teamId, userId: user.id, role });
  return { id: user.id, email: user.email };
}

/** A browser's view of one session: the cookie and the CSRF token it was given. */
export interface Browser {
  cookie: string;
  csrf: string;
  // biome-ignore lint/suspicious/noExplicitAny: the Session object as the tests read it
  session: any;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

/** The `quire_session=…` pair of a response's Set-Cookie. */
export function cookieOf(response: ApiResponse): string {
  const header = response.headers.get('set-cookie') ?? '';
  return header.split(';')[0] ?? '';
}

/** A browser holding the session a sign-in style response started. */
export function browserFrom(server: TestServer, response: ApiResponse): Browser {
  const browser: Browser = {
    cookie: cookieOf(response),
    csrf: response.json.csrf_token,
    session: response.json,
    call(method, path, body, headers = {}) {
      const unsafe = method !== 'GET' && method !== 'HEAD';
      return api(server.base, method, path, {
        ...(body === undefined ? {} : { body }),
        headers: { cookie: browser.cookie, ...(unsafe ? { 'x-csrf-token': browser.csrf } : {}), ...headers },
      });
    },
  };
  return browser;
}

export async function signIn(server: TestServer, email: string, password = PASSWORD): Promise<Browser> {
  const response = await api(server.base, 'POST', '/v1/session', { body: { email, password } });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${response.text}`);
  return browserFrom(server, response);
}
