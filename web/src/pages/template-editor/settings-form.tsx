import type { Settings } from './state';

/** The page settings a render takes: paper format, orientation, margin and render mode. */
export function SettingsForm({
  settings,
  onChange,
}: {
  settings: Settings;
  onChange: (s: Settings) => void;
}) {
  const format = typeof settings.format === 'string' ? settings.format : '';
  const set = (patch: Partial<Settings>) => {
    const next: Record<string, unknown> = { ...settings, ...patch };
    // An emptied field means the default, so its key is left out rather than kept empty.
    for (const key of Object.keys(next)) if (next[key] === '' || next[key] === undefined) delete next[key];
    onChange(next as Settings);
  };
  return (
    <fieldset class="settings">
      <legend>Page settings</legend>
      <label for="set-format">Format</label>
      <select
        id="set-format"
        value={format}
        onChange={(e) => set({ format: (e.currentTarget.value || undefined) as Settings['format'] })}
      >
        <option value="">Default</option>
        {['A4', 'A5', 'Letter', 'Legal'].map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
      <label for="set-orientation">Orientation</label>
      <select
        id="set-orientation"
        value={settings.orientation ?? ''}
        onChange={(e) =>
          set({ orientation: (e.currentTarget.value || undefined) as Settings['orientation'] })
        }
      >
        <option value="">Default</option>
        <option value="portrait">Portrait</option>
        <option value="landscape">Landscape</option>
      </select>
      <label for="set-margin">Margin (CSS lengths, e.g. 20mm)</label>
      <input
        id="set-margin"
        value={settings.margin ?? ''}
        onChange={(e) => set({ margin: e.currentTarget.value || undefined })}
      />
      <label for="set-mode">Render mode</label>
      <select
        id="set-mode"
        value={settings.mode ?? ''}
        onChange={(e) => set({ mode: (e.currentTarget.value || undefined) as Settings['mode'] })}
      >
        <option value="">Default</option>
        <option value="fast">Fast</option>
        <option value="print">Print (Paged.js)</option>
      </select>
    </fieldset>
  );
}
