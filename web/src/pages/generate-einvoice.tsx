import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../api';
import { DataForm, type Json } from '../data-form';
import { ErrorText, useLoad } from '../ui';

type Example = Awaited<ReturnType<typeof loadExample>>;

/** What POST /pdf's `e_invoice` carries; `profile` left out sends the standard's default. */
export interface EInvoiceValue {
  standard: string;
  profile: string;
  invoice: Json;
}

function loadExample() {
  return call(api.GET('/e-invoices/example'));
}

/**
 * The e-invoice part of Generate: standard and profile from the list the server takes, and the invoice model
 * as a form started from an example the official rules accept without a warning (GET /e-invoices/example).
 */
export function EInvoiceFields({
  value,
  onChange,
}: {
  value: EInvoiceValue | null;
  onChange: (v: EInvoiceValue) => void;
}) {
  const example = useLoad(loadExample, []);
  const answer: Example | null = example.data ?? null;
  useEffect(() => {
    if (answer && !value)
      onChange({
        standard: answer.standard,
        profile: answer.profile,
        invoice: structuredClone(answer.invoice as Json),
      });
  }, [answer]);
  const [formKey, setFormKey] = useState(0);
  if (!answer || !value) return <ErrorText error={example.error} />;
  const standard = answer.standards.find((s) => s.standard === value.standard);
  const validAsIs = answer.valid_for.includes(value.standard);
  return (
    <>
      <div class="field">
        <label for="einvoice-standard">Standard</label>
        <select
          id="einvoice-standard"
          value={value.standard}
          onChange={(e) => {
            const next = answer.standards.find((s) => s.standard === e.currentTarget.value);
            if (next) onChange({ ...value, standard: next.standard, profile: next.default_profile });
          }}
        >
          {answer.standards.map((s) => (
            <option key={s.standard} value={s.standard}>
              {s.standard} ({s.output === 'pdf' ? 'PDF with the XML inside' : 'XML'})
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="einvoice-profile">Profile</label>
        <select
          id="einvoice-profile"
          value={value.profile}
          onChange={(e) => onChange({ ...value, profile: e.currentTarget.value })}
        >
          {(standard?.profiles ?? []).map((p) => (
            <option key={p} value={p}>
              {p}
              {p === standard?.default_profile ? ' (default)' : ''}
            </option>
          ))}
        </select>
      </div>
      <p class="hint" id="einvoice-hint">
        {validAsIs
          ? 'The example below passes the official rules of this standard without a warning: change it to your invoice.'
          : 'This standard needs more than the example carries (see the guide on e-invoices); Quire names each missing field.'}{' '}
        Received an e-invoice? <a href="#/einvoice-check">Check it against the official rules</a>.{' '}
        <button
          type="button"
          onClick={() => {
            onChange({ ...value, invoice: structuredClone(answer.invoice as Json) });
            setFormKey((k) => k + 1);
          }}
        >
          Start again from the example
        </button>
      </p>
      <DataForm
        key={formKey}
        fields={answer.fields}
        value={value.invoice}
        onChange={(invoice) => onChange({ ...value, invoice })}
      />
    </>
  );
}
