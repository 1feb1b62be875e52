import type { ComponentProps } from 'preact';
import { Reason } from '../../ui';
import type { EditorActions } from './actions';

/**
 * The page head's actions. In test mode every one that changes the template is off, pointing at `reason`
 * (one Reason for all of them: the buttons share its id).
 */
export function EditorToolbar({
  id,
  dirty,
  saving,
  renaming,
  reason,
  note,
  onNote,
  onRenameToggle,
  actions,
}: {
  id: string;
  dirty: boolean;
  saving: boolean;
  renaming: boolean;
  reason: string | null;
  /** The note for the next version, saved with it (extension `message`). */
  note: string;
  onNote: (text: string) => void;
  onRenameToggle: () => void;
  actions: Pick<EditorActions, 'save' | 'duplicate' | 'remove'>;
}) {
  return (
    <>
      {dirty && (
        <span class="unsaved" data-testid="unsaved">
          Unsaved changes
        </span>
      )}
      <a href={`#/generate?template=${id}`}>Generate from this template</a>
      <ChangeButton onClick={onRenameToggle} aria-expanded={renaming} reason={reason}>
        Rename
      </ChangeButton>
      <ChangeButton onClick={actions.duplicate} reason={reason}>
        Duplicate
      </ChangeButton>
      <label for="version-note">Note for this version</label>
      <input
        id="version-note"
        class="version-note-input"
        type="text"
        maxLength={500}
        placeholder="Optional, e.g. Bigger logo"
        value={note}
        disabled={reason !== null}
        aria-describedby={reason ? 'save-reason' : undefined}
        onInput={(e) => onNote(e.currentTarget.value)}
      />
      <ChangeButton
        class="primary"
        onClick={actions.save}
        title="Ctrl+S"
        aria-keyshortcuts="Control+S Meta+S"
        disabled={saving}
        reason={reason}
      >
        {saving ? 'Saving…' : 'Save new version'}
      </ChangeButton>
      <ChangeButton class="danger" onClick={actions.remove} reason={reason}>
        Delete template
      </ChangeButton>
      <Reason id="save-reason" text={reason} />
    </>
  );
}

/**
 * A button that changes the template: off in test mode, and then pointing at the reason the toolbar shows
 * (one Reason serves every such button on the page).
 */
export function ChangeButton({
  reason,
  disabled,
  ...button
}: Omit<ComponentProps<'button'>, 'type' | 'disabled'> & { reason: string | null; disabled?: boolean }) {
  return (
    <button
      type="button"
      {...button}
      disabled={disabled || reason !== null}
      aria-describedby={reason ? 'save-reason' : undefined}
    />
  );
}
