import { api, call, type Schemas } from './api';
import { useLoad } from './ui';

/** The finishing options (README "Finishing options") the dashboard offers; attachments only through the API. */
export type Finishing = Pick<
  Schemas['PdfRequest'],
  'pdf_a' | 'pdf_ua' | 'tagged' | 'outline' | 'pdf_metadata' | 'stamp' | 'protect' | 'sign'
>;

type Metadata = NonNullable<Finishing['pdf_metadata']>;

/** Drops empty strings and empty objects, so an untouched form sends nothing. */
function compact<T extends Record<string, unknown>>(value: T): T | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== '' && v !== undefined) out[k] = v;
  return Object.keys(out).length === 0 ? undefined : (out as T);
}

/**
 * PDF/A, PDF/UA, tags, outline, PDF metadata and stamp — and, where the passwords are used at once
 * (the generate form, not template settings: passwords are never stored), protection.
 */
export function FinishingForm(props: {
  value: Finishing;
  onChange: (value: Finishing) => void;
  withProtect: boolean;
  idPrefix: string;
}) {
  const { value, onChange, withProtect, idPrefix } = props;
  const id = (name: string) => `${idPrefix}-${name}`;
  const set = (patch: Partial<Finishing>) => {
    const next: Record<string, unknown> = { ...value, ...patch };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    onChange(next as Finishing);
  };
  const metadata: Metadata = value.pdf_metadata ?? {};
  const certificates = useLoad(() => call(api.GET('/certificates')), []);
  const setMetadata = (patch: Partial<Metadata>) => set({ pdf_metadata: compact({ ...metadata, ...patch }) });
  const flag = (name: 'pdf_ua' | 'outline', label: string) => (
    <label>
      <input
        id={id(name)}
        type="checkbox"
        checked={value[name] === true}
        onChange={(e) => set({ [name]: e.currentTarget.checked ? true : undefined })}
      />{' '}
      {label}
    </label>
  );
  return (
    <details class="finishing">
      <summary>
        PDF output: PDF/A, accessibility, metadata, stamp, signature{withProtect ? ', password' : ''}
      </summary>
      <fieldset class="settings">
        <legend>PDF output (extensions)</legend>
        <label for={id('pdf-a')}>PDF/A</label>
        <select
          id={id('pdf-a')}
          value={value.pdf_a ?? ''}
          onChange={(e) => set({ pdf_a: (e.currentTarget.value || undefined) as Finishing['pdf_a'] })}
        >
          <option value="">None</option>
          {['2b', '2u', '3b', '3u'].map((level) => (
            <option key={level} value={level}>
              PDF/A-{level}
            </option>
          ))}
        </select>
        <label for={id('tagged')}>Tagged (accessible structure)</label>
        <select
          id={id('tagged')}
          value={value.tagged === undefined ? '' : String(value.tagged)}
          onChange={(e) => {
            const v = e.currentTarget.value;
            set({ tagged: v === '' ? undefined : v === 'true' });
          }}
        >
          <option value="">Default (no)</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
        {flag('outline', 'Outline (bookmarks of the headings)')}
        {flag('pdf_ua', 'PDF/UA (needs a language)')}
        <label for={id('title')}>Title</label>
        <input
          id={id('title')}
          value={metadata.title ?? ''}
          onInput={(e) => setMetadata({ title: e.currentTarget.value })}
        />
        <label for={id('author')}>Author</label>
        <input
          id={id('author')}
          value={metadata.author ?? ''}
          onInput={(e) => setMetadata({ author: e.currentTarget.value })}
        />
        <label for={id('subject')}>Subject</label>
        <input
          id={id('subject')}
          value={metadata.subject ?? ''}
          onInput={(e) => setMetadata({ subject: e.currentTarget.value })}
        />
        <label for={id('keywords')}>Keywords (comma-separated)</label>
        <input
          id={id('keywords')}
          value={(metadata.keywords ?? []).join(', ')}
          onInput={(e) => {
            const words = e.currentTarget.value
              .split(',')
              .map((w) => w.trim())
              .filter(Boolean);
            setMetadata({ keywords: words.length ? words : undefined });
          }}
        />
        <label for={id('language')}>Language (e.g. en, de-CH)</label>
        <input
          id={id('language')}
          value={metadata.language ?? ''}
          onInput={(e) => setMetadata({ language: e.currentTarget.value })}
        />
        <label for={id('stamp')}>Stamp text</label>
        <input
          id={id('stamp')}
          value={value.stamp?.text ?? ''}
          onInput={(e) => {
            const text = e.currentTarget.value;
            set({ stamp: text ? { ...value.stamp, text } : undefined });
          }}
        />
        <label for={id('stamp-pages')}>Stamp on</label>
        <select
          id={id('stamp-pages')}
          value={value.stamp?.pages ?? 'all'}
          disabled={!value.stamp}
          onChange={(e) =>
            value.stamp &&
            set({ stamp: { ...value.stamp, pages: e.currentTarget.value as 'all' | 'first' | 'rest' } })
          }
        >
          <option value="all">All pages</option>
          <option value="first">The first page</option>
          <option value="rest">All but the first</option>
        </select>
        <label for={id('sign')}>Sign with (a team certificate; not with a password)</label>
        <select
          id={id('sign')}
          value={value.sign?.certificate_id ?? ''}
          onChange={(e) => {
            const certificateId = e.currentTarget.value;
            set({ sign: certificateId ? { ...value.sign, certificate_id: certificateId } : undefined });
          }}
        >
          <option value="">Not signed</option>
          {(certificates.data?.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.subject})
            </option>
          ))}
        </select>
        {withProtect && (
          <>
            <label for={id('owner-password')}>Owner password (encrypts with AES-256; not with PDF/A)</label>
            <input
              id={id('owner-password')}
              type="password"
              autocomplete="new-password"
              value={value.protect?.owner_password ?? ''}
              onInput={(e) => {
                const owner = e.currentTarget.value;
                set({ protect: owner ? { ...value.protect, owner_password: owner } : undefined });
              }}
            />
            <label for={id('user-password')}>Password to open (optional)</label>
            <input
              id={id('user-password')}
              type="password"
              autocomplete="new-password"
              disabled={!value.protect}
              value={value.protect?.user_password ?? ''}
              onInput={(e) =>
                value.protect && set({ protect: { ...value.protect, user_password: e.currentTarget.value } })
              }
            />
          </>
        )}
      </fieldset>
    </details>
  );
}
