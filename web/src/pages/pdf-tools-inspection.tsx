import { type ComponentChildren, Fragment } from 'preact';
import { formatBytes, type Schemas } from '../api';
import { DataTable, formatDate } from '../ui';

type Inspection = Schemas['PdfInspection'];
type PageSize = Inspection['page_sizes'][number];

/** Paper sizes by name, in points (portrait). */
const PAPER: ReadonlyArray<[string, number, number]> = [
  ['A3', 841.89, 1190.55],
  ['A4', 595.28, 841.89],
  ['A5', 419.53, 595.28],
  ['Letter', 612, 792],
  ['Legal', 612, 1008],
];

/** "A4", "A4 landscape", or null for a size without a name (within a point, as PDF writers round). */
function paperName(width: number, height: number): string | null {
  const near = (a: number, b: number) => Math.abs(a - b) <= 1;
  for (const [name, w, h] of PAPER) {
    if (near(width, w) && near(height, h)) return name;
    if (near(width, h) && near(height, w)) return `${name} landscape`;
  }
  return null;
}

function describeSize(size: PageSize): string {
  const mm = (pt: number) => Math.round((pt * 25.4) / 72);
  const name = paperName(size.width_pt, size.height_pt);
  const dims = `${mm(size.width_pt)} × ${mm(size.height_pt)} mm`;
  return name ? `${name} (${dims})` : dims;
}

interface SizeRun {
  first: number;
  last: number;
  size: PageSize;
}

/** Consecutive pages of the same size and rotation as one row: a 40-page A4 file is one line, not 40. */
function sizeRuns(sizes: readonly PageSize[]): SizeRun[] {
  const runs: SizeRun[] = [];
  sizes.forEach((size, i) => {
    const last = runs.at(-1);
    const same =
      last &&
      last.size.width_pt === size.width_pt &&
      last.size.height_pt === size.height_pt &&
      last.size.rotation === size.rotation;
    if (same) last.last = i + 1;
    else runs.push({ first: i + 1, last: i + 1, size });
  });
  return runs;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const orDash = (value: string | null | undefined) => (value === null || value === undefined ? '–' : value);

function fieldValue(value: Inspection['form_fields'][number]['value']): string {
  if (value === null) return '(empty)';
  if (typeof value === 'boolean') return value ? 'Checked' : 'Not checked';
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A list's section: its table, or a sentence saying there is nothing. */
function Listing(props: { title: string; none: string; count: number; children: ComponentChildren }) {
  return (
    <>
      <h3>{props.title}</h3>
      {props.count === 0 ? <p>{props.none}</p> : props.children}
    </>
  );
}

function Facts({ inspection }: { inspection: Inspection }) {
  const { pdf_a, pdf_ua } = inspection;
  return (
    <dl class="numbers">
      <dt>Pages</dt>
      <dd data-testid="inspect-pages">{inspection.pages}</dd>
      <dt>PDF version</dt>
      <dd>{orDash(inspection.pdf_version)}</dd>
      <dt>Encrypted</dt>
      <dd>{yesNo(inspection.encrypted)}</dd>
      <dt>Tagged</dt>
      <dd>{yesNo(inspection.tagged)}</dd>
      <dt>PDF/A</dt>
      <dd>{pdf_a ? `PDF/A-${pdf_a.part}${pdf_a.conformance ?? ''}` : 'No'}</dd>
      <dt>PDF/UA</dt>
      <dd>{pdf_ua ? `PDF/UA-${pdf_ua.part}` : 'No'}</dd>
    </dl>
  );
}

const METADATA: ReadonlyArray<[keyof Inspection['metadata'], string]> = [
  ['title', 'Title'],
  ['author', 'Author'],
  ['subject', 'Subject'],
  ['keywords', 'Keywords'],
  ['creator', 'Creator'],
  ['producer', 'Producer'],
  ['created_at', 'Created'],
  ['modified_at', 'Modified'],
  ['language', 'Language'],
];

function Metadata({ metadata }: { metadata: Inspection['metadata'] }) {
  const shown = METADATA.filter(([key]) => metadata[key] !== null);
  const text = (key: keyof Inspection['metadata'], value: string) =>
    key.endsWith('_at') && !Number.isNaN(Date.parse(value)) ? formatDate(value) : value;
  return (
    <Listing title="Metadata" none="The PDF states no metadata." count={shown.length}>
      <dl class="numbers">
        {shown.map(([key, label]) => (
          <Fragment key={key}>
            <dt>{label}</dt>
            <dd>{text(key, metadata[key]!)}</dd>
          </Fragment>
        ))}
      </dl>
    </Listing>
  );
}

function PageSizes({ sizes }: { sizes: readonly PageSize[] }) {
  return (
    <DataTable columns={['Pages', 'Size', 'Points', 'Rotation']} caption="Page sizes">
      {sizeRuns(sizes).map((run) => (
        <tr key={run.first}>
          <td>{run.first === run.last ? run.first : `${run.first}–${run.last}`}</td>
          <td>{describeSize(run.size)}</td>
          <td>
            {run.size.width_pt} × {run.size.height_pt}
          </td>
          <td>{run.size.rotation}°</td>
        </tr>
      ))}
    </DataTable>
  );
}

function Lists({ inspection }: { inspection: Inspection }) {
  const { attachments, form_fields, signatures, fonts } = inspection;
  return (
    <>
      <Listing title="Attachments" none="No embedded files." count={attachments.length}>
        <DataTable columns={['File', 'Type', 'Size', 'Relationship']}>
          {attachments.map((a) => (
            <tr key={a.filename}>
              <td>{a.filename}</td>
              <td>{orDash(a.mime_type)}</td>
              <td>{a.size === null ? '–' : formatBytes(a.size)}</td>
              <td>{orDash(a.relationship)}</td>
            </tr>
          ))}
        </DataTable>
      </Listing>
      <Listing title="Form fields" none="No form fields." count={form_fields.length}>
        <DataTable columns={['Name', 'Type', 'Value', 'Options']}>
          {form_fields.map((f) => (
            <tr key={f.name}>
              <td>{f.name}</td>
              <td>{f.type}</td>
              <td>{fieldValue(f.value)}</td>
              <td>{f.options?.join(', ') ?? '–'}</td>
            </tr>
          ))}
        </DataTable>
      </Listing>
      <Listing title="Signatures" none="Not signed." count={signatures.length}>
        <DataTable columns={['Field', 'Signer', 'Signed', 'Reason', 'Valid', 'Covers the whole document']}>
          {signatures.map((s) => (
            <tr key={s.field}>
              <td>{s.field}</td>
              <td>{orDash(s.signer)}</td>
              <td>{s.signed_at ? formatDate(s.signed_at) : '–'}</td>
              <td>{orDash(s.reason)}</td>
              <td>{s.valid ? 'Valid' : 'Invalid'}</td>
              <td>{s.covers_whole_document ? 'Yes' : 'No: changed after signing'}</td>
            </tr>
          ))}
        </DataTable>
      </Listing>
      <Listing title="Fonts" none="No fonts (a scan or drawings only)." count={fonts.length}>
        <DataTable columns={['Font', 'Embedded']}>
          {fonts.map((f, i) => (
            <tr key={`${f.name}-${i}`}>
              <td>{f.name}</td>
              <td>{yesNo(f.embedded)}</td>
            </tr>
          ))}
        </DataTable>
      </Listing>
    </>
  );
}

/** What POST /v1/pdf/inspect read, for people: facts, metadata and each list as a table. */
export function InspectionView({ inspection }: { inspection: Inspection }) {
  return (
    <section class="field-group pdf-tools-result" aria-labelledby="inspection-title">
      <h2 id="inspection-title">Inspection</h2>
      <Facts inspection={inspection} />
      <PageSizes sizes={inspection.page_sizes} />
      <Metadata metadata={inspection.metadata} />
      <Lists inspection={inspection} />
    </section>
  );
}
