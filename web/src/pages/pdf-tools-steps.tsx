import { useState } from 'preact/hooks';
import type { Schemas } from '../api';

/** The transform steps the page builds (a subset of POST /v1/pdf/transform's, see docs/pdf-tools.md). */
type Step = Schemas['PdfTransformStep'];
type PdfALevel = Extract<Step, { op: 'pdf_a' }>['level'];
type Degrees = Extract<Step, { op: 'rotate' }>['degrees'];
export type FormField = Schemas['PdfInspection']['form_fields'][number];
type FillValue = FormField['value'];
/** A field of a fill step: its value as edited, and as the inspection read it. */
type FillField = FormField & { initial: FillValue };

export type StepDraft = { key: number } & (
  | { op: 'pages'; select: string }
  | { op: 'rotate'; pages: string; degrees: Degrees }
  | { op: 'stamp'; text: string }
  | { op: 'metadata'; title: string; author: string }
  | { op: 'fill'; fields: FillField[] }
  | { op: 'flatten' }
  | { op: 'pdf_a'; level: PdfALevel }
  | { op: 'protect'; owner_password: string; user_password: string }
);
type Op = StepDraft['op'];
type DraftOf<O extends Op> = Extract<StepDraft, { op: O }>;

const LABELS: Record<Op, string> = {
  pages: 'Keep pages',
  rotate: 'Rotate pages',
  stamp: 'Stamp text',
  metadata: 'Set title and author',
  fill: 'Fill form fields',
  flatten: 'Flatten the form',
  pdf_a: 'Convert to PDF/A',
  protect: 'Protect with passwords',
};
const OPS = Object.keys(LABELS) as Op[];
const LEVELS: readonly PdfALevel[] = ['2b', '2u', '3b', '3u', '2a', '3a'];
const DEGREES: readonly Degrees[] = [90, 180, 270];

/** Form fields a fill step can set (signatures and buttons hold no value to fill). */
export function fillable(fields: readonly FormField[]): FormField[] {
  return fields.filter((f) => f.type !== 'signature' && f.type !== 'button');
}

let nextKey = 1;

function newStep(op: Op, fields: readonly FormField[]): StepDraft {
  const key = nextKey++;
  switch (op) {
    case 'pages':
      return { key, op, select: '' };
    case 'rotate':
      return { key, op, pages: 'all', degrees: 90 };
    case 'stamp':
      return { key, op, text: 'COPY' };
    case 'metadata':
      return { key, op, title: '', author: '' };
    case 'fill':
      return { key, op, fields: fillable(fields).map((f) => ({ ...f, initial: f.value })) };
    case 'pdf_a':
      return { key, op, level: '2b' };
    case 'protect':
      return { key, op, owner_password: '', user_password: '' };
    default:
      return { key, op: 'flatten' };
  }
}

/**
 * A fill value as the API takes it, or undefined for a field left as it was (unchanged, or a radio or
 * choice with none chosen): a value the file already holds is not drawn again, so a field whose value the
 * API could not draw (a script Helvetica lacks) does not fail a step that never touched it.
 */
function sentValue(field: FillField): string | boolean | string[] | undefined {
  const { value } = field;
  if (value === null || (value === '' && field.type !== 'text')) return undefined;
  if (JSON.stringify(value) === JSON.stringify(field.initial)) return undefined;
  return value;
}

/** Only the fields a user filled in: empty optional fields are left out rather than sent empty. */
function withoutEmpty<T extends Record<string, unknown>>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')) as T;
}

/** The step as the API takes it. */
export function stepBody(draft: StepDraft): Step {
  const { key: _key, ...step } = draft;
  switch (step.op) {
    case 'metadata':
      return withoutEmpty({ op: step.op, title: step.title.trim(), author: step.author.trim() });
    case 'protect':
      return withoutEmpty({ ...step });
    case 'fill': {
      const fields: Record<string, string | boolean | string[]> = {};
      for (const field of step.fields) {
        const value = sentValue(field);
        if (value !== undefined) fields[field.name] = value;
      }
      return { op: 'fill', fields };
    }
    case 'pages':
      return { op: 'pages', select: step.select.trim() };
    case 'rotate':
      return { ...step, pages: step.pages.trim() };
    default:
      return step;
  }
}

interface EditorProps<O extends Op> {
  step: DraftOf<O>;
  onChange: (step: DraftOf<O>) => void;
}

function TextInput(props: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: string;
  required?: boolean;
  placeholder?: string;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required}
        placeholder={props.placeholder}
        autoComplete={props.type === 'password' ? 'new-password' : 'off'}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </div>
  );
}

function RotateEditor({ step, onChange }: EditorProps<'rotate'>) {
  const id = `step-${step.key}`;
  return (
    <>
      <TextInput
        id={`${id}-pages`}
        label="Pages to rotate (all, or e.g. 2,4)"
        value={step.pages}
        required
        onInput={(pages) => onChange({ ...step, pages })}
      />
      <div class="field">
        <label for={`${id}-degrees`}>Degrees clockwise</label>
        <select
          id={`${id}-degrees`}
          value={String(step.degrees)}
          onChange={(e) => onChange({ ...step, degrees: Number(e.currentTarget.value) as Degrees })}
        >
          {DEGREES.map((d) => (
            <option key={d} value={String(d)}>
              {d}°
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** One form field's control, prefilled with the value the inspection read. */
function FillInput({
  id,
  field,
  onChange,
}: {
  id: string;
  field: FormField;
  onChange: (v: FillValue) => void;
}) {
  const label = `${field.name} (${field.type})`;
  if (field.type === 'checkbox') {
    return (
      <div class="field">
        <label>
          <input
            id={id}
            type="checkbox"
            checked={field.value === true}
            onChange={(e) => onChange(e.currentTarget.checked)}
          />{' '}
          {label}
        </label>
      </div>
    );
  }
  if (field.options && field.options.length > 0) {
    const multiple = Array.isArray(field.value);
    const selected = (o: string) => (multiple ? (field.value as string[]).includes(o) : field.value === o);
    return (
      <div class="field">
        <label for={id}>{label}</label>
        <select
          id={id}
          multiple={multiple}
          onChange={(e) => {
            const chosen = [...e.currentTarget.selectedOptions].map((o) => o.value).filter(Boolean);
            onChange(multiple ? chosen : (chosen[0] ?? null));
          }}
        >
          {!multiple && (
            <option value="" selected={field.value === null || field.value === ''}>
              (leave unchanged)
            </option>
          )}
          {field.options.map((o) => (
            <option key={o} value={o} selected={selected(o)}>
              {o}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <TextInput
      id={id}
      label={label}
      value={typeof field.value === 'string' ? field.value : ''}
      onInput={onChange}
    />
  );
}

function FillEditor({ step, onChange }: EditorProps<'fill'>) {
  if (step.fields.length === 0) return <p class="hint">The inspected PDF has no fields to fill.</p>;
  const set = (index: number, value: FillValue) =>
    onChange({ ...step, fields: step.fields.map((f, i) => (i === index ? { ...f, value } : f)) });
  return (
    <>
      <p class="hint">Prefilled with the values the file holds; only the fields you change are sent.</p>
      {step.fields.map((field, i) => (
        <FillInput
          key={field.name}
          id={`step-${step.key}-field-${i}`}
          field={field}
          onChange={(value) => set(i, value)}
        />
      ))}
    </>
  );
}

/** The inputs of one step (a flatten has none). */
function StepFields({ step, onChange }: { step: StepDraft; onChange: (step: StepDraft) => void }) {
  const id = `step-${step.key}`;
  switch (step.op) {
    case 'pages':
      return (
        <TextInput
          id={`${id}-select`}
          label="Pages to keep, in order (e.g. 3,1-2,5-)"
          value={step.select}
          required
          onInput={(select) => onChange({ ...step, select })}
        />
      );
    case 'rotate':
      return <RotateEditor step={step} onChange={onChange} />;
    case 'stamp':
      return (
        <TextInput
          id={`${id}-text`}
          label="Stamp text"
          value={step.text}
          required
          onInput={(text) => onChange({ ...step, text })}
        />
      );
    case 'metadata':
      return (
        <>
          <TextInput
            id={`${id}-title`}
            label="Title"
            value={step.title}
            onInput={(title) => onChange({ ...step, title })}
          />
          <TextInput
            id={`${id}-author`}
            label="Author"
            value={step.author}
            onInput={(author) => onChange({ ...step, author })}
          />
        </>
      );
    case 'fill':
      return <FillEditor step={step} onChange={onChange} />;
    case 'pdf_a':
      return (
        <div class="field">
          <label for={`${id}-level`}>PDF/A level</label>
          <select
            id={`${id}-level`}
            value={step.level}
            onChange={(e) => onChange({ ...step, level: e.currentTarget.value as PdfALevel })}
          >
            {LEVELS.map((level) => (
              <option key={level} value={level}>
                PDF/A-{level}
              </option>
            ))}
          </select>
        </div>
      );
    case 'protect':
      return (
        <>
          <TextInput
            id={`${id}-owner`}
            label="Owner password (to change permissions)"
            type="password"
            value={step.owner_password}
            required
            onInput={(owner_password) => onChange({ ...step, owner_password })}
          />
          <TextInput
            id={`${id}-user`}
            label="Open password (optional)"
            type="password"
            value={step.user_password}
            onInput={(user_password) => onChange({ ...step, user_password })}
          />
        </>
      );
    default:
      return <p class="hint">Draws the form fields into the pages; nothing can be filled afterwards.</p>;
  }
}

function StepCard(props: {
  step: StepDraft;
  index: number;
  count: number;
  onChange: (step: StepDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { step, index, count } = props;
  const n = index + 1;
  return (
    <li>
      <fieldset class="field-group pdf-step">
        <legend>
          Step {n}: {LABELS[step.op]}
        </legend>
        <StepFields step={step} onChange={props.onChange} />
        <div class="actions">
          <button type="button" disabled={index === 0} onClick={() => props.onMove(-1)}>
            Move up<span class="sr-only"> step {n}</span>
          </button>
          <button type="button" disabled={index === count - 1} onClick={() => props.onMove(1)}>
            Move down<span class="sr-only"> step {n}</span>
          </button>
          <button type="button" class="danger" onClick={props.onRemove}>
            Remove<span class="sr-only"> step {n}</span>
          </button>
        </div>
      </fieldset>
    </li>
  );
}

/** The ordered list of steps with a picker to add one; `fields` are the inspected form fields a fill step starts from. */
export function StepBuilder(props: {
  steps: StepDraft[];
  onChange: (steps: StepDraft[]) => void;
  fields: readonly FormField[];
}) {
  const { steps, onChange } = props;
  const [op, setOp] = useState<Op>('pages');
  const canFill = fillable(props.fields).length > 0;
  const move = (index: number, by: -1 | 1) => {
    const next = [...steps];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onChange(next);
  };
  return (
    <>
      {steps.length > 0 && (
        <ol class="pdf-steps">
          {steps.map((step, i) => (
            <StepCard
              key={step.key}
              step={step}
              index={i}
              count={steps.length}
              onChange={(changed) => onChange(steps.map((s) => (s.key === step.key ? changed : s)))}
              onMove={(by) => move(i, by)}
              onRemove={() => onChange(steps.filter((s) => s.key !== step.key))}
            />
          ))}
        </ol>
      )}
      <div class="row">
        <div class="field">
          <label for="step-op">Step to add</label>
          <select
            id="step-op"
            value={op}
            aria-describedby={canFill ? undefined : 'step-fill-hint'}
            onChange={(e) => setOp(e.currentTarget.value as Op)}
          >
            {OPS.map((o) => (
              <option key={o} value={o} disabled={o === 'fill' && !canFill}>
                {LABELS[o]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          disabled={steps.length >= 20 || (op === 'fill' && !canFill)}
          onClick={() => onChange([...steps, newStep(op, props.fields)])}
        >
          Add step
        </button>
      </div>
      {!canFill && (
        <p class="hint" id="step-fill-hint">
          Filling form fields needs an inspected PDF with fields.
        </p>
      )}
    </>
  );
}
