import { useState } from 'preact/hooks';
import { api, base64Of, call, type Schemas } from '../api';
import { Busy, DataTable, ErrorText, Page } from '../ui';
import { useAction } from '../use-action';

type Validation = Schemas['EInvoiceValidation'];
type Parsed = Schemas['EInvoiceParse'];
type Finding = Validation['errors'][number];
type Json = Record<string, unknown>;

const ACCEPT = '.xml,.pdf,application/xml,text/xml,application/pdf';

function FindingsTable({ caption, findings }: { caption: string; findings: Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <DataTable columns={['Rule', 'Message', 'Location']} caption={caption}>
      {findings.map((f, i) => (
        <tr key={`${f.rule}-${i}`}>
          <td>
            <code>{f.rule}</code>
          </td>
          <td>{f.message}</td>
          <td>
            <code>{f.location}</code>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function Verdict({ report }: { report: Validation }) {
  return (
    <section class="field-group einvoice-result" aria-labelledby="verdict-title">
      <h2 id="verdict-title">{report.valid ? 'Valid' : `Invalid: ${report.errors.length} failed rule(s)`}</h2>
      <p role="status">
        {report.syntax.toUpperCase()} · standard <code>{report.standard}</code> · profile{' '}
        <code>{report.profile}</code> · <code>{report.guideline_id || '(no guideline id)'}</code>
      </p>
      {report.pdf && (
        <p>
          PDF: PDF/A {report.pdf.pdf_a.declared ?? 'not declared'}; attachment{' '}
          <code>{report.pdf.attachment.name}</code> ({report.pdf.attachment.relationship ?? 'no relationship'}
          ,{report.pdf.attachment.associated ? ' associated' : ' not associated'}), Factur-X level{' '}
          {report.pdf.attachment.conformance_level ?? 'missing'}
        </p>
      )}
      <FindingsTable caption="Failed rules" findings={report.errors} />
      <FindingsTable caption="Warnings" findings={report.warnings} />
    </section>
  );
}

function party(value: unknown): string {
  const p = (value ?? {}) as Json;
  const address = (p.address ?? {}) as Json;
  return [p.name, address.city, address.country_code].filter(Boolean).join(', ');
}

function InvoiceView({ parsed }: { parsed: Parsed }) {
  const invoice = parsed.invoice as Json;
  const lines = (invoice.lines ?? []) as Json[];
  const vat = (line: Json) => ((line.vat ?? {}) as Json).category;
  return (
    <section class="field-group einvoice-result" aria-labelledby="invoice-title">
      <h2 id="invoice-title">
        Invoice {String(invoice.number)} of {String(invoice.issue_date)}
      </h2>
      <dl>
        <dt>Seller</dt>
        <dd>{party(invoice.seller)}</dd>
        <dt>Buyer</dt>
        <dd>{party(invoice.buyer)}</dd>
        <dt>Amount due</dt>
        <dd>
          {parsed.totals.due_payable ?? '–'} {String(invoice.currency)}
        </dd>
      </dl>
      {lines.length > 0 && (
        <DataTable columns={['Item', 'Quantity', 'Unit price', 'VAT']} caption="Lines">
          {lines.map((line, i) => (
            <tr key={`${String(line.id)}-${i}`}>
              <td>{String(line.name)}</td>
              <td>{String(line.quantity)}</td>
              <td>{String(line.unit_price)}</td>
              <td>{String(vat(line))}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {parsed.warnings.length > 0 && (
        <ul>
          {parsed.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      <details>
        <summary>The invoice as POST /pdf takes it (JSON)</summary>
        <pre class="json-view">
          {JSON.stringify({ standard: parsed.standard, profile: parsed.profile, invoice }, null, 2)}
        </pre>
      </details>
    </section>
  );
}

/** E-invoice check: drop a received XML or Factur-X PDF, see the official rules' verdict and the invoice. */
export function EInvoiceCheckPage() {
  const { busy, error, run } = useAction();
  const [report, setReport] = useState<Validation | null>(null);
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [dragging, setDragging] = useState(false);

  const check = async (file: File | undefined) => {
    if (!file) return;
    setReport(null);
    setParsed(null);
    await run(async () => {
      const body = { filename: file.name, content_base64: await base64Of(file) };
      const [validation, reading] = await Promise.all([
        call(api.POST('/e-invoices/validate', { body })),
        call(api.POST('/e-invoices/parse', { body })),
      ]);
      setReport(validation);
      setParsed(reading);
    });
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void check(event.dataTransfer?.files[0]);
  };

  return (
    <Page title="E-invoice check">
      <p>
        Check an e-invoice you received — CII or UBL XML (EN 16931, XRechnung, Peppol BIS 3.0), a Polish KSeF
        FA(3) invoice, or a Factur-X/ZUGFeRD PDF — with the official rules, and read it into Quire's invoice
        model.
      </p>
      <section
        aria-label="Drop zone for the e-invoice file"
        class={`field dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <label for="einvoice-file">Drop a file here or choose one</label>
        <input
          id="einvoice-file"
          type="file"
          accept={ACCEPT}
          aria-describedby={error ? 'einvoice-error' : undefined}
          onChange={(e) => void check(e.currentTarget.files?.[0])}
        />
        <ErrorText error={error} id="einvoice-error" />
      </section>
      {busy && <Busy label="Checking…" />}
      {report && <Verdict report={report} />}
      {parsed && <InvoiceView parsed={parsed} />}
    </Page>
  );
}
