/** The template's new name, under the page head; a name-only change makes no new version. */
export function RenameForm({
  title,
  onSubmit,
  onCancel,
}: {
  title: string;
  onSubmit: (event: Event) => void;
  onCancel: () => void;
}) {
  return (
    <form class="inline" onSubmit={onSubmit} aria-label="Rename the template">
      <label for="rename-input">New name</label>
      <input id="rename-input" name="name" required maxLength={100} defaultValue={title} />
      <button type="submit" class="primary">
        Save name
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <span class="hint">Renaming makes no new version.</span>
    </form>
  );
}
