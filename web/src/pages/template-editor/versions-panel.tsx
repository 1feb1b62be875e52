import type { Schemas } from '../../api';
import { Busy, DataTable, ErrorText, formatDate } from '../../ui';
import { VersionCompare } from '../version-diff';
import { ChangeButton } from './toolbar';

type Versions = Schemas['TemplateVersionList'];
type Version = Schemas['TemplateVersion'];

/** "current" (what the editor saves on top of) and "pinned" (what renders use) beside a version's number. */
function VersionMarkers({
  version,
  current,
  pinned,
}: {
  version: number;
  current: number;
  pinned: number | null;
}) {
  return (
    <>
      {version === current && (
        <span class="badge badge-ok" data-testid="current-marker">
          current
        </span>
      )}{' '}
      {version === pinned && (
        <span class="badge badge-live" data-testid="pinned-marker">
          pinned
        </span>
      )}
    </>
  );
}

function VersionRow({
  v,
  current,
  pinned,
  viewed,
  reason,
  onPin,
  onToggleView,
}: {
  v: Version;
  current: number;
  pinned: number | null;
  viewed: number | null;
  reason: string | null;
  onPin: (version: number | null) => void;
  onToggleView: (version: number) => void;
}) {
  return (
    <tr data-version={v.version}>
      <td>
        v{v.version} <VersionMarkers version={v.version} current={current} pinned={pinned} />
      </td>
      <td class="version-note">{v.message ?? <span class="none">No note</span>}</td>
      <td>{v.author ?? <span class="none">Unknown</span>}</td>
      <td>
        <time dateTime={v.created_at}>{formatDate(v.created_at)}</time>
      </td>
      <td>
        <ChangeButton onClick={() => onPin(pinned === v.version ? null : v.version)} reason={reason}>
          {pinned === v.version ? 'Unpin' : 'Pin'} v{v.version}
        </ChangeButton>
      </td>
      <td>
        <button
          type="button"
          aria-expanded={viewed === v.version}
          aria-controls="version-source"
          onClick={() => onToggleView(v.version)}
        >
          Compare v{v.version}
        </button>
      </td>
    </tr>
  );
}

/**
 * The template's versions with their notes and authors: pin one, or compare one with another (the current
 * one by default) as text or visually, and restore it. `reason` turns pinning off in test mode.
 */
export function VersionsPanel({
  id,
  versions,
  pinned,
  viewed,
  baseVersion,
  dirty,
  reason,
  onPin,
  onToggleView,
  onCloseView,
  onRestored,
}: {
  id: string;
  versions: { data?: Versions; loading: boolean; error?: unknown };
  pinned: number | null;
  viewed: number | null;
  baseVersion: number;
  dirty: boolean;
  reason: string | null;
  onPin: (version: number | null) => void;
  onToggleView: (version: number) => void;
  onCloseView: () => void;
  onRestored: () => void;
}) {
  const list = versions.data?.data;
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <div class="busy-slot">{versions.loading && <Busy label="Loading versions…" />}</div>
      <ErrorText error={versions.error} />
      <DataTable columns={['Version', 'Note', 'Author', 'Created', 'Pin', 'Compare']}>
        {list?.map((v) => (
          <VersionRow
            key={v.version}
            v={v}
            current={baseVersion}
            pinned={pinned}
            viewed={viewed}
            reason={reason}
            onPin={onPin}
            onToggleView={onToggleView}
          />
        ))}
      </DataTable>
      <div id="version-source">
        {viewed !== null && list && (
          <VersionCompare
            key={`${viewed}-${baseVersion}`}
            id={id}
            version={viewed}
            current={baseVersion}
            versions={list.map((v) => v.version)}
            readOnlyReason={reason}
            dirty={dirty}
            onRestored={onRestored}
            onClose={onCloseView}
          />
        )}
      </div>
    </section>
  );
}
