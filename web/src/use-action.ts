import { useState } from 'preact/hooks';

/**
 * One user action's state: whether it is running (its controls disabled meanwhile) and the error it last ended
 * with, shown by the form's ErrorText. `run` clears the previous error, runs the work, keeps what it throws,
 * and answers whether the work succeeded.
 */
export function useAction() {
  // What is running: its label ('' when the caller gave none), or null when nothing is.
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<unknown>, label = ''): Promise<boolean> => {
    setRunning(label);
    setError(null);
    try {
      await work();
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setRunning(null);
    }
  };
  return { busy: running !== null, running, error, setError, run };
}
