import type { StoredDraft } from '../../drafts';
import { formatDate } from '../../ui';

/** The draft this browser kept from an earlier visit, offered back until it is restored or discarded. */
export function DraftOffer({
  offer,
  baseVersion,
  onRestore,
  onDiscard,
}: {
  offer: StoredDraft;
  baseVersion: number;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <section class="draft-offer" aria-labelledby="draft-offer-title">
      <h2 id="draft-offer-title">Unsaved changes were kept</h2>
      <p>
        This browser kept changes you had not saved ({formatDate(offer.saved_at)}, made on version{' '}
        {offer.base_version}
        {offer.base_version !== baseVersion && `; the template is now at version ${baseVersion}`}).
      </p>
      <button type="button" class="primary" onClick={onRestore}>
        Restore draft
      </button>
      <button type="button" onClick={onDiscard}>
        Discard draft
      </button>
    </section>
  );
}

/** Said while there are unsaved changes the browser refused to keep: only saving keeps them then. */
export function DraftNotStored() {
  return (
    <p class="error" role="alert">
      This browser refused to keep a draft (storage full or disabled): save a version to keep your changes.
    </p>
  );
}
