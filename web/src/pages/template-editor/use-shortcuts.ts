import { useEffect, useRef } from 'preact/hooks';

/**
 * Ctrl/Cmd+S saves and Ctrl/Cmd+Enter previews at once, also while typing in an editor pane. Caught on the
 * way down (capture), so neither the browser's "save page" nor CodeMirror's own Mod-Enter binding runs.
 */
export function useShortcuts(actions: { save: () => void; preview: () => void }): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const action = event.key === 's' ? 'save' : event.key === 'Enter' ? 'preview' : null;
      if (!action) return;
      event.preventDefault();
      event.stopPropagation();
      latest.current[action]();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}
