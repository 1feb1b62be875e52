import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * App-wide feedback that outlives the control that caused it: toasts for results, a modal confirmation for
 * destructive actions, and copy buttons. One host of each is mounted by the shell.
 */

interface Toast {
  id: number;
  text: string;
  link?: ToastLink;
}

/** Where a toast's result can be seen (an in-app #/… address or a download). */
export interface ToastLink {
  href: string;
  label: string;
}

const TOAST_MS = 6_000;
let nextToast = 1;
let showToast: ((toast: Toast) => void) | null = null;

/** Announces a result in the corner (role=status), gone after a few seconds or when dismissed. */
export function toast(text: string, link?: ToastLink): void {
  showToast?.({ id: nextToast++, text, ...(link ? { link } : {}) });
}

export function ToastHost() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => {
    showToast = (t) => {
      setToasts((list) => [...list, t]);
      // A toast with a link (a background result: the ZIP, the document) stays until dismissed, so the user
      // who was elsewhere still finds it; plain confirmations go by themselves.
      if (!t.link) setTimeout(() => setToasts((list) => list.filter((x) => x.id !== t.id)), TOAST_MS);
    };
    return () => {
      showToast = null;
    };
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <p key={t.id} class="toast">
          {t.text}
          {t.link && <a href={t.link.href}>{t.link.label}</a>}
          <button
            type="button"
            class="link"
            onClick={() => setToasts((list) => list.filter((x) => x.id !== t.id))}
          >
            Dismiss
          </button>
        </p>
      ))}
    </div>
  );
}

export interface ConfirmOptions {
  title: string;
  /** What happens, and what cannot be undone. */
  body: string;
  /** The confirming button's text, e.g. "Revoke key". */
  action: string;
  /** When set, the action stays disabled until exactly this text is typed (the most harmful actions). */
  typeToConfirm?: string;
  /** What the action touches, listed under the body (e.g. the API keys a removed member made). */
  items?: string[];
  /** The label of a checkbox, unticked at first, for a further step the user may add to the action. */
  option?: string;
}

/** A confirmed action, and whether its `option` was ticked. */
export interface ConfirmChoice {
  checked: boolean;
}

interface Pending extends ConfirmOptions {
  resolve: (choice: ConfirmChoice | null) => void;
}

let openConfirm: ((pending: Pending) => void) | null = null;

/** Asks in a modal dialog; resolves with the choice when the user confirms, null on cancel or Escape. */
export function confirmChoice(options: ConfirmOptions): Promise<ConfirmChoice | null> {
  return new Promise((resolve) => {
    if (openConfirm) openConfirm({ ...options, resolve });
    // No dialog host (tests of a page alone): the browser's own dialog, which has no checkbox.
    else resolve(window.confirm(`${options.title}\n\n${options.body}`) ? { checked: false } : null);
  });
}

/** Asks in a modal dialog; resolves true when the user confirms, false on cancel or Escape. */
export async function confirmAction(options: ConfirmOptions): Promise<boolean> {
  return (await confirmChoice(options)) !== null;
}

export function ConfirmHost() {
  const [pending, setPending] = useState<Pending | null>(null);
  const [typed, setTyped] = useState('');
  const [checked, setChecked] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    openConfirm = (p) => {
      setTyped('');
      setChecked(false);
      setPending(p);
    };
    return () => {
      openConfirm = null;
    };
  }, []);
  useEffect(() => {
    if (pending && !dialog.current?.open) dialog.current?.showModal();
  }, [pending]);

  const finish = (ok: boolean) => {
    pending?.resolve(ok ? { checked } : null);
    setPending(null);
    if (dialog.current?.open) dialog.current.close();
  };
  const blocked = pending?.typeToConfirm !== undefined && typed !== pending.typeToConfirm;
  return (
    <dialog
      ref={dialog}
      class="confirm"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={() => finish(false)}
    >
      {pending && (
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            if (!blocked) finish(true);
          }}
        >
          <h2 id="confirm-title">{pending.title}</h2>
          <p id="confirm-body">{pending.body}</p>
          {pending.items && pending.items.length > 0 && (
            <ul class="confirm-items">
              {pending.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
          {pending.option !== undefined && (
            <label class="confirm-option">
              <input
                type="checkbox"
                checked={checked}
                onChange={(e) => setChecked(e.currentTarget.checked)}
              />{' '}
              {pending.option}
            </label>
          )}
          {pending.typeToConfirm !== undefined && (
            <>
              <label for="confirm-typed">
                Type <strong>{pending.typeToConfirm}</strong> to confirm
              </label>
              <input
                id="confirm-typed"
                value={typed}
                autoComplete="off"
                onInput={(e) => setTyped(e.currentTarget.value)}
              />
            </>
          )}
          <div class="actions">
            <button type="button" onClick={() => finish(false)}>
              Cancel
            </button>
            <button type="submit" class="danger" disabled={blocked}>
              {pending.action}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}

/** Copies `text` to the clipboard and says so in a toast; `label` names what is copied for screen readers. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast(`Copied ${label}.`);
    } catch {
      // Clipboard refused (an http page that is not localhost, or permission): select it for Ctrl+C.
      toast(`Copying was refused by the browser: select the ${label} and press Ctrl+C.`);
    }
  };
  return (
    <button type="button" class="copy" onClick={copy} aria-label={`Copy ${label}`}>
      Copy
    </button>
  );
}
