import { useEffect, useState } from 'preact/hooks';
import { callRoute } from './api';

/**
 * Says where emails go when the server has no SMTP (GET /auth/email-setup, an extension): a promised
 * email that only lands in DATA_DIR/outbox would otherwise look lost. Nothing while it is unknown or set.
 */
export function EmailSetupNote({ what = 'Emails' }: { what?: string }) {
  const [smtp, setSmtp] = useState<boolean | null>(null);
  useEffect(() => {
    callRoute<{ smtp: boolean }>('GET', '/auth/email-setup').then(
      (setup) => setSmtp(setup.smtp),
      () => setSmtp(null),
    );
  }, []);
  if (smtp !== false) return null;
  return (
    <p class="email-note" role="note" data-testid="email-setup">
      Email is not configured on this server. {what} are not sent: each is written as an <code>.eml</code>{' '}
      file to <code>DATA_DIR/outbox</code> on the server, where an administrator can open it. To send them,
      set <code>QUIRE_SMTP_URL</code> (for example <code>smtp://user:password@mail.example.com:587</code>) and{' '}
      <code>QUIRE_SMTP_FROM</code>, then restart Quire.
    </p>
  );
}
