import { useState } from 'preact/hooks';
import { api, base64Of, call, formatBytes, type Schemas, type Session } from '../api';
import { CopyButton, toast } from '../feedback';
import {
  Busy,
  DataTable,
  EmptyState,
  ErrorText,
  formatDate,
  liveOnlyReason,
  Page,
  Reason,
  Skeleton,
  useLoad,
} from '../ui';
import { useAction } from '../use-action';

type Asset = Schemas['BrandAsset'];
type Kind = Asset['kind'];

/** What the file input offers per kind (the API's accepted formats; limits are the API's: 2 MB / 3 MB). */
const ACCEPT: Record<Kind, string> = {
  logo: '.png,.jpg,.jpeg,.svg,image/png,image/jpeg,image/svg+xml',
  font: '.woff2,.ttf,.otf,font/woff2,font/ttf,font/otf',
};

/** The template snippet that uses an asset. */
function usageOf(asset: Asset): string {
  return asset.kind === 'logo' ? '{{ brand.logo_url }}' : `{{ brand.fonts.${asset.name}.url }}`;
}

function UploadForm({ onUploaded, reason }: { onUploaded: () => void; reason: string | null }) {
  const [kind, setKind] = useState<Kind>('logo');
  const [name, setName] = useState('Logo');
  const { busy, error, setError, run } = useAction();
  const [done, setDone] = useState<string | null>(null);

  const upload = async (event: Event) => {
    event.preventDefault();
    const input = document.getElementById('brand-file') as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) {
      setError(new Error('Choose a file first.'));
      return;
    }
    setDone(null);
    await run(async () => {
      const body = { kind, name: name.trim(), content_base64: await base64Of(file) };
      const asset = await call(api.POST('/brand-assets', { body }));
      setDone(`Uploaded ${asset.kind} “${asset.name}”.`);
      input.value = '';
      onUploaded();
    });
  };

  const chooseKind = (next: Kind) => {
    setKind(next);
    // A font's name is how templates address it, so suggest one that fits the rule.
    if (next === 'logo' && name === '') setName('Logo');
    if (next === 'font' && name === 'Logo') setName('');
  };

  return (
    <form class="field-group" onSubmit={upload} aria-busy={busy}>
      <h2>Upload</h2>
      <fieldset class="inline-set">
        <legend>Kind</legend>
        {(['logo', 'font'] as const).map((k) => (
          <label key={k}>
            <input
              type="radio"
              name="brand-kind"
              value={k}
              checked={kind === k}
              onChange={() => chooseKind(k)}
            />
            {k === 'logo'
              ? 'Logo (PNG, JPEG or SVG, at most 2 MB)'
              : 'Font (WOFF2, TTF or OTF, at most 3 MB)'}
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="brand-name">{kind === 'logo' ? 'Label' : 'Font name (used as brand.fonts.NAME)'}</label>
        <input
          id="brand-name"
          value={name}
          maxLength={100}
          required
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="brand-file">File</label>
        <input
          id="brand-file"
          type="file"
          accept={ACCEPT[kind]}
          aria-describedby={error ? 'brand-error' : undefined}
        />
        <ErrorText error={error} id="brand-error" />
      </div>
      <button
        type="submit"
        class="primary"
        disabled={busy || reason !== null}
        aria-describedby={reason ? 'upload-reason' : undefined}
      >
        Upload {kind}
      </button>
      <Reason id="upload-reason" text={reason} />
      {busy && <Busy label="Uploading…" />}
      {done && <p role="status">{done}</p>}
    </form>
  );
}

function AssetRow({
  asset,
  onDeleted,
  reason,
}: {
  asset: Asset;
  onDeleted: () => void;
  reason: string | null;
}) {
  const { error, run } = useAction();
  const remove = async () => {
    await run(
      async () => {
        await call(api.DELETE('/brand-assets/{id}', { params: { path: { id: asset.id } } }));
        toast(`Deleted ${asset.kind} ${asset.name}.`);
        onDeleted();
      },
      {
        ask: {
          title: `Delete the ${asset.kind} ${asset.name}?`,
          body: `Templates that use it render without it from now on (${usageOf(asset)}). This cannot be undone.`,
          action: `Delete ${asset.kind}`,
        },
      },
    );
  };
  return (
    <tr data-asset={asset.id}>
      <td>
        {asset.kind === 'logo' ? (
          <img class="thumb" src={asset.url} alt={`Logo ${asset.name}`} />
        ) : (
          <span>{asset.family ?? asset.name}</span>
        )}
      </td>
      <td>{asset.kind}</td>
      <td>{asset.name}</td>
      <td>
        {asset.content_type.replace(/^(image|font)\//, '').toUpperCase()}, {formatBytes(asset.bytes)}
      </td>
      <td>
        <code>{usageOf(asset)}</code> <CopyButton text={usageOf(asset)} label={`snippet for ${asset.name}`} />
      </td>
      <td>{formatDate(asset.created_at)}</td>
      <td>
        <button
          type="button"
          class="danger"
          onClick={remove}
          disabled={reason !== null}
          aria-describedby={reason ? 'upload-reason' : undefined}
        >
          Delete {asset.kind} {asset.name}
        </button>
        <ErrorText error={error} />
      </td>
    </tr>
  );
}

export function BrandPage({ session }: { session: Session }) {
  const assets = useLoad(() => call(api.GET('/brand-assets')), []);
  const list = assets.data?.data ?? [];
  const reason = liveOnlyReason(session.mode, 'upload or delete brand assets');
  return (
    <Page title="Brand assets">
      <p class="hint">
        Your logo and fonts, served to every render of this team. In a template use{' '}
        <code>{'<img src="{{ brand.logo_url }}">'}</code> for the logo and{' '}
        <code>{'@font-face { font-family: Brand; src: url("{{ brand.fonts.NAME.url }}"); }'}</code> for a font
        named NAME.
      </p>
      <UploadForm onUploaded={assets.reload} reason={reason} />
      <h2>Assets</h2>
      {assets.loading && !assets.data && <Skeleton label="Loading brand assets…" rows={2} />}
      <ErrorText error={assets.error} />
      {assets.data && list.length === 0 && (
        <EmptyState title="No logo or fonts yet">
          Upload a logo (PNG, JPEG or SVG) or a font above: every template of this team can then use it
          through the <code>brand</code> variable, so a new logo reaches every document without editing
          templates.
        </EmptyState>
      )}
      {list.length > 0 && (
        <DataTable columns={['Preview', 'Kind', 'Name', 'Format', 'In a template', 'Uploaded', 'Actions']}>
          {list.map((a) => (
            <AssetRow key={a.id} asset={a} onDeleted={assets.reload} reason={reason} />
          ))}
        </DataTable>
      )}
    </Page>
  );
}
