import type { EmailSender } from '../email/index.js';

/** Where each emailed or printed link opens the SPA (contract: tokens travel in the fragment). */
const LINK_PATHS = {
  sign_in: '/app/#/auth/link',
  invite: '/app/#/auth/invite',
  reset: '/app/#/auth/reset',
  verify: '/app/#/auth/verify',
} as const;

export type LinkKind = keyof typeof LINK_PATHS;

export function dashboardLink(publicUrl: string, kind: LinkKind, token: string): string {
  return `${publicUrl}${LINK_PATHS[kind]}?token=${encodeURIComponent(token)}`;
}

const SUBJECTS: Record<LinkKind, (teamName: string) => string> = {
  sign_in: () => 'Your Quire sign-in link',
  invite: (team) => `You're invited to ${team} on Quire`,
  reset: () => 'Reset your Quire password',
  verify: () => 'Verify your email for Quire',
};

const INTROS: Record<LinkKind, string> = {
  sign_in: 'Open this link to sign in to Quire and choose a password (it works once, within 24 hours):',
  invite: 'You have been invited to a team on Quire. Open this link to accept and choose a password:',
  reset: 'Someone asked to reset your Quire password. Open this link within an hour to choose a new one:',
  verify: 'Open this link to confirm this is your email address:',
};

export interface LinkMail {
  sender: EmailSender;
  publicUrl: () => string;
  log: { warn(obj: Record<string, unknown>, msg: string): void };
  /** Emails leave the server (QUIRE_SMTP_URL, or a sender given by the embedder); else they go to DATA_DIR/outbox. */
  smtp?: boolean;
}

/**
 * Emails a link (the body has it on its own line). Not awaited by callers that must answer alike whether
 * or not the address has an account (password reset); a failed send is logged without the token.
 */
export async function sendLinkEmail(
  mail: LinkMail,
  input: { to: string; kind: LinkKind; token: string; teamName?: string },
): Promise<void> {
  const link = dashboardLink(mail.publicUrl(), input.kind, input.token);
  const text = [
    INTROS[input.kind],
    '',
    link,
    '',
    'If you did not expect this email, you can ignore it.',
    '',
  ].join('\n');
  const result = await mail.sender.send({
    to: input.to,
    subject: SUBJECTS[input.kind](input.teamName ?? ''),
    text,
  });
  if (!result.ok) mail.log.warn({ kind: input.kind, error: result.error }, 'dashboard email not sent');
}
