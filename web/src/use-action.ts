import { useState } from 'preact/hooks';
import { type ConfirmChoice, type ConfirmOptions, confirmChoice } from './feedback';

export interface RunOptions {
  /** Names what runs (`running`), for a control that shows which of several it is. */
  label?: string;
  /** Asked first (confirmChoice); declined, nothing runs and `run` answers false. */
  ask?: ConfirmOptions;
}

/**
 * One user action's state: whether it is running (its controls disabled meanwhile) and the error it last ended
 * with, shown by the form's ErrorText. `run` asks first when told to, clears the previous error, runs the
 * work (told whether the question's option was ticked), keeps what it throws, and answers whether the work
 * succeeded.
 */
export function useAction() {
  // What is running: its label ('' when the caller gave none), or null when nothing is.
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (
    work: (choice: ConfirmChoice) => Promise<unknown>,
    options: RunOptions = {},
  ): Promise<boolean> => {
    const choice = options.ask ? await confirmChoice(options.ask) : { checked: false };
    if (!choice) return false;
    setRunning(options.label ?? '');
    setError(null);
    try {
      await work(choice);
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
