import {
  PDFCheckBox,
  PDFDocument,
  PDFDropdown,
  type PDFField,
  PDFOptionList,
  PDFRadioGroup,
  PDFTextField,
} from '@cantoo/pdf-lib';
import { AppError } from '../shared/errors.js';

/** A `fill` value: text, a check box's state, a radio button's or a choice's option, or several options. */
export type FillValue = string | boolean | string[];

function refuse(field: string, message: string): AppError {
  return new AppError('invalid_request', message, { field });
}

function text(value: FillValue, field: string, kind: string): string {
  if (typeof value !== 'string') throw refuse(field, `"${field}" is a ${kind}: send its value as a string.`);
  return value;
}

function optionOf(options: string[], value: string, field: string): string {
  if (!options.includes(value))
    throw refuse(
      field,
      `"${field}" has no option "${value}"; its options are: ${options.slice(0, 20).join(', ')}.`,
    );
  return value;
}

/** One field set from its value, by the field's own type. */
function setField(field: PDFField, value: FillValue, path: string): void {
  if (field instanceof PDFTextField) {
    field.setText(text(value, path, 'text field'));
  } else if (field instanceof PDFCheckBox) {
    if (typeof value !== 'boolean') throw refuse(path, `"${path}" is a check box: send true or false.`);
    if (value) field.check();
    else field.uncheck();
  } else if (field instanceof PDFRadioGroup) {
    field.select(optionOf(field.getOptions(), text(value, path, 'radio group'), path));
  } else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
    const values = Array.isArray(value) ? value : [text(value, path, 'choice')];
    const options = field.getOptions();
    const editable = field instanceof PDFDropdown && field.isEditable();
    for (const v of values) if (!editable) optionOf(options, v, path);
    field.select(values.length === 1 ? (values[0] as string) : values);
  } else {
    throw refuse(
      path,
      `"${path}" is a ${field.constructor.name.replace(/^PDF/, '')}, which cannot be filled.`,
    );
  }
}

/**
 * `fill`: AcroForm fields set by name; pdf-lib regenerates each filled field's appearance so every viewer
 * shows the values (a field keeps its appearance font when it has one, else Helvetica). The form stays a form.
 */
export async function fillForm(
  pdf: Buffer,
  fields: Record<string, FillValue>,
  field: string,
): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const form = doc.getForm();
  if (form.getFields().length === 0) throw refuse(field, `"${field}": the PDF has no form fields to fill.`);
  for (const [name, value] of Object.entries(fields)) {
    const path = `${field}.${name}`;
    const target = form.getFieldMaybe(name);
    if (!target)
      throw refuse(
        path,
        `The PDF has no form field named "${name}"; its fields are: ${form
          .getFields()
          .slice(0, 20)
          .map((f) => f.getName())
          .join(', ')}.`,
      );
    try {
      setField(target, value, path);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw refuse(path, `"${path}" could not be set: ${(err as Error).message.slice(0, 200)}.`);
    }
  }
  return save(doc, field);
}

/** `flatten`: every form field drawn into its page's content and removed: the values stay, the fields go. */
export async function flattenForm(pdf: Buffer, field: string): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  try {
    doc.getForm().flatten();
  } catch (err) {
    throw refuse(field, `The form could not be flattened: ${(err as Error).message.slice(0, 200)}.`);
  }
  return save(doc, field);
}

async function save(doc: PDFDocument, field: string): Promise<Buffer> {
  try {
    return Buffer.from(await doc.save({ useObjectStreams: false }));
  } catch (err) {
    // A value the form's font cannot encode (Helvetica has no Cyrillic) fails while appearances are drawn.
    throw refuse(field, `The form could not be written: ${(err as Error).message.slice(0, 200)}.`);
  }
}
