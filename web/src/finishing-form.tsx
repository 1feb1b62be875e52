import { useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from './api';
import { useLoad } from './ui';

/** The finishing options (docs/pdf-output.md "Finishing options") the dashboard offers. */
export type Finishing = Pick<
  Schemas['PdfRequest'],
  'pdf_a' | 'pdf_ua' | 'tagged' | 'outline' | 'pdf_metadata' | 'stamp' | 'protect' | 'sign' | 'attachments'
>;

type Metadata = NonNullable<Finishing['pdf_metadata']>;
type Attachment = NonNullable<Finishing['attachments']>[number];
type Relationship = NonNullable<Attachment['relationship']>;

/** The API's limit on attachments per document. */
const MAX_ATTACHMENTS = 10;
/**
 * The files' own bytes, all together: base64 makes them a third larger, and the whole request must stay
 * within the API's 5 MB body, so 3.5 MB leaves room for the rest of it.
 */
const MAX_ATTACHMENT_BYTES = 3_500_000;
const RELATIONSHIPS: Relationship[] = ['Unspecified', 'Source', 'Data', 'Alternative', 'Supplement'];
/** The API's mime_type pattern: a file the browser cannot type is sent as generic bytes. */
const MIME_TYPE = /^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*\/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*$/;

/** Bytes a base64 text stands for (without decoding it). */
function decodedBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}

/** Drops empty strings and empty objects, so an untouched form sends nothing. */
function compact<T extends Record<string, unknown>>(value: T): T | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== '' && v !== undefined) out[k] = v;
  return Object.keys(out).length === 0 ? undefined : (out as T);
}

/**
 * PDF/A, PDF/UA, tags, outline, PDF metadata, stamp, attachments, signature — and, in the generate
 * form, protection (template settings show a template's protect without its passwords).
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
  // A template's saved protect comes back without its passwords (docs/pdf-output.md "Finishing options"): sent back
  // as it is, it keeps them.
  const kept = value.protect !== undefined && 'owner_password_set' in value.protect;
  // The saved protect as last shown: emptying a typed replacement puts it back instead of dropping the
  // protection without a word (removing it is the button's job).
  const saved = useRef<Finishing['protect']>(undefined);
  if (kept) saved.current = value.protect;
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
        PDF output: PDF/A, accessibility, metadata, stamp, attachments, signature
        {withProtect ? ', password' : ''}
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
        <AttachmentsForm
          value={value.attachments ?? []}
          onChange={(attachments) => set({ attachments: attachments.length ? attachments : undefined })}
          idPrefix={id('attachment')}
        />
        {withProtect && kept && (
          <p class="hint" id={id('protect-kept')}>
            Passwords are set (stored sealed, never shown): type new ones to replace them.{' '}
            <button
              type="button"
              onClick={() => {
                saved.current = undefined;
                set({ protect: undefined });
              }}
            >
              Remove the protection
            </button>
          </p>
        )}
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
                const permissions = value.protect?.permissions;
                set({
                  protect: owner
                    ? { ...(kept ? { permissions } : value.protect), owner_password: owner }
                    : saved.current,
                });
              }}
            />
            <label for={id('user-password')}>Open password (optional)</label>
            <input
              id={id('user-password')}
              type="password"
              autocomplete="new-password"
              disabled={!value.protect || kept}
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

/**
 * `attachments` (extension): files from this computer embedded in the PDF, each with its name, type,
 * description and relationship to the document, within the API's limits (10 files, the 5 MB body).
 */
function AttachmentsForm(props: {
  value: Attachment[];
  onChange: (value: Attachment[]) => void;
  idPrefix: string;
}) {
  const { value, onChange, idPrefix } = props;
  const [problem, setProblem] = useState<string | null>(null);
  const used = value.reduce((sum, a) => sum + decodedBytes(a.content_base64), 0);
  const full = value.length >= MAX_ATTACHMENTS;
  const update = (index: number, patch: Partial<Attachment>) =>
    onChange(value.map((a, i) => (i === index ? { ...a, ...patch } : a)));
  const add = async (files: File[]) => {
    setProblem(null);
    const added: Attachment[] = [];
    let total = used;
    for (const file of files) {
      if (value.length + added.length >= MAX_ATTACHMENTS) {
        setProblem(`At most ${MAX_ATTACHMENTS} attachments: ${file.name} was not added.`);
        break;
      }
      if (total + file.size > MAX_ATTACHMENT_BYTES) {
        setProblem(
          `${file.name} would take the attachments past ${(MAX_ATTACHMENT_BYTES / 1e6).toFixed(1)} MB (the request's 5 MB limit, in base64).`,
        );
        break;
      }
      if (value.some((a) => a.filename === file.name) || added.some((a) => a.filename === file.name)) {
        setProblem(`An attachment is already named ${file.name}.`);
        continue;
      }
      try {
        added.push({
          filename: file.name.slice(0, 100),
          content_base64: await readBase64(file),
          mime_type: MIME_TYPE.test(file.type) ? file.type : 'application/octet-stream',
        });
        total += file.size;
      } catch {
        setProblem(`${file.name} could not be read.`);
      }
    }
    if (added.length) onChange([...value, ...added]);
  };
  return (
    <fieldset class="field-group attachments">
      <legend>Attachments (files embedded in the PDF; with PDF/A, level 3 only)</legend>
      <label for={`${idPrefix}-upload`}>Add files</label>
      <input
        id={`${idPrefix}-upload`}
        type="file"
        multiple
        disabled={full}
        onChange={async (e) => {
          const input = e.currentTarget;
          await add([...(input.files ?? [])]);
          input.value = '';
        }}
      />
      {problem && <p role="alert">{problem}</p>}
      {value.map((a, i) => (
        <div key={a.filename} class="attachment">
          <p>
            {a.filename} ({Math.ceil(decodedBytes(a.content_base64) / 1024)} KB)
          </p>
          <label for={`${idPrefix}-${i}-mime`}>Type</label>
          <input
            id={`${idPrefix}-${i}-mime`}
            value={a.mime_type}
            onInput={(e) => update(i, { mime_type: e.currentTarget.value })}
          />
          <label for={`${idPrefix}-${i}-description`}>Description</label>
          <input
            id={`${idPrefix}-${i}-description`}
            maxLength={500}
            value={a.description ?? ''}
            onInput={(e) => update(i, { description: e.currentTarget.value || undefined })}
          />
          <label for={`${idPrefix}-${i}-relationship`}>Relationship</label>
          <select
            id={`${idPrefix}-${i}-relationship`}
            value={a.relationship ?? 'Unspecified'}
            onChange={(e) => update(i, { relationship: e.currentTarget.value as Relationship })}
          >
            {RELATIONSHIPS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <button
            type="button"
            aria-label={`Remove ${a.filename}`}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
    </fieldset>
  );
}

/** One PDF merged into the document (docs/pdf-output.md "Merging"), with what the form shows for it. */
export interface MergeItem {
  label: string;
  source: NonNullable<Schemas['PdfRequest']['append']>[number];
}

export interface MergeValue {
  prepend: MergeItem[];
  append: MergeItem[];
}

/** At most this many sources on each side (the API's limit). */
const MAX_MERGE_SOURCES = 10;

/** The request fields of the merge form: nothing when it is empty. */
export function mergeFields(value: MergeValue): Pick<Schemas['PdfRequest'], 'prepend' | 'append'> {
  return {
    ...(value.prepend.length ? { prepend: value.prepend.map((i) => i.source) } : {}),
    ...(value.append.length ? { append: value.append.map((i) => i.source) } : {}),
  };
}

/** A file as base64 (the browser's FileReader: no size copy in JavaScript strings beyond the result). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

type Placement = 'prepend' | 'append';

/**
 * `prepend`/`append` (extension): stored documents picked from the recent ones, or PDF files uploaded
 * from this computer, before or after the generated pages.
 */
export function MergeForm(props: {
  value: MergeValue;
  onChange: (value: MergeValue) => void;
  /** Recent succeeded documents to pick from (newest first). */
  documents: Array<Pick<Schemas['Document'], 'id' | 'pages' | 'created_at' | 'test'>>;
}) {
  const { value, onChange, documents } = props;
  const [placement, setPlacement] = useState<Placement>('append');
  const [picked, setPicked] = useState('');
  const [readError, setReadError] = useState<string | null>(null);
  const add = (item: MergeItem) => {
    if (value[placement].length >= MAX_MERGE_SOURCES) return;
    onChange({ ...value, [placement]: [...value[placement], item] });
  };
  const remove = (where: Placement, index: number) =>
    onChange({ ...value, [where]: value[where].filter((_, i) => i !== index) });
  const full = value[placement].length >= MAX_MERGE_SOURCES;
  const describe = (d: (typeof documents)[number]) =>
    `${d.id.slice(0, 8)} · ${d.pages ?? '?'} p · ${new Date(d.created_at).toLocaleDateString()}${d.test ? ' · test' : ''}`;
  const list = (where: Placement, title: string) =>
    value[where].length > 0 && (
      <div class="field">
        <p>{title}</p>
        {value[where].map((item, i) => (
          <div key={`${where}-${i}`} class="row">
            <span>{item.label}</span>
            <button type="button" onClick={() => remove(where, i)} aria-label={`Remove ${item.label}`}>
              Remove
            </button>
          </div>
        ))}
      </div>
    );
  return (
    <details class="finishing">
      <summary>Merge PDFs: add pages before or after the document</summary>
      <fieldset class="field-group">
        <legend>Merge PDFs (extension)</legend>
        <div class="field">
          <label for="merge-placement">Add to</label>
          <select
            id="merge-placement"
            value={placement}
            onChange={(e) => setPlacement(e.currentTarget.value as Placement)}
          >
            <option value="prepend">Before the document</option>
            <option value="append">After the document</option>
          </select>
        </div>
        <div class="field">
          <label for="merge-document">A generated document</label>
          <select id="merge-document" value={picked} onChange={(e) => setPicked(e.currentTarget.value)}>
            <option value="">Choose a document…</option>
            {documents.map((d) => (
              <option key={d.id} value={d.id}>
                {describe(d)}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={!picked || full}
            onClick={() => {
              const doc = documents.find((d) => d.id === picked);
              if (doc) add({ label: `Document ${describe(doc)}`, source: { document_id: doc.id } });
              setPicked('');
            }}
          >
            Add the document
          </button>
        </div>
        <div class="field">
          <label for="merge-upload">Or upload a PDF</label>
          <input
            id="merge-upload"
            type="file"
            accept="application/pdf,.pdf"
            disabled={full}
            onChange={async (e) => {
              const input = e.currentTarget;
              const file = input.files?.[0];
              if (!file) return;
              setReadError(null);
              try {
                add({ label: `File ${file.name}`, source: { pdf_base64: await readBase64(file) } });
              } catch {
                setReadError(`${file.name} could not be read.`);
              }
              input.value = '';
            }}
          />
        </div>
        {readError && <p role="alert">{readError}</p>}
        {full && <p class="hint">At most {MAX_MERGE_SOURCES} PDFs on each side.</p>}
        {list('prepend', 'Before the document:')}
        {list('append', 'After the document:')}
      </fieldset>
    </details>
  );
}
