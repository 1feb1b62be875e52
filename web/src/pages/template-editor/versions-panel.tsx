import type { Schemas } from '../../api';
import { Busy, DataTable, ErrorText, formatDate } from '../../ui';
import { VersionDiff, VersionSource } from '../version-diff';
import { ChangeButton } from './toolbar';

type Versions = Schemas['TemplateVersionList'];

/**
 * The template's versions: pin one, or view an old one's source against the current one (to restore it),
 * and the rendered difference between two. `reason` turns pinning off in test mode.
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
      <DataTable columns={['Version', 'Created', 'Pin', 'Source']}>
        {list?.map((v) => (
          <tr key={v.version}>
            <td>
              v{v.version}
              {pinned === v.version && <strong> (pinned)</strong>}
            </td>
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
                View v{v.version}
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      <div id="version-source">
        {viewed !== null && (
          <VersionSource
            key={`${viewed}-${baseVersion}`}
            id={id}
            version={viewed}
            current={baseVersion}
            readOnlyReason={reason}
            dirty={dirty}
            onRestored={onRestored}
            onClose={onCloseView}
          />
        )}
      </div>
      {list && list.length > 1 && (
        <VersionDiff key={list.length} id={id} versions={list.map((v) => v.version)} />
      )}
    </section>
  );
}
