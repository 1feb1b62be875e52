import { AppError } from './errors.js';

/**
 * A guard for what test mode may read but not change (spec: Authentication 4): a test key, or a dashboard
 * session in test mode, is refused with `forbidden`. A session is told about the mode it can switch, a key
 * about the live key it needs.
 */
export function testModeGuard(refusal: {
  session: string;
  key: string;
}): (auth: { mode: 'live' | 'test'; session: unknown }) => void {
  return (auth) => {
    if (auth.mode !== 'test') return;
    throw new AppError('forbidden', auth.session ? refusal.session : refusal.key);
  };
}
