/**
 * Reading qpdf's JSON (version 2) of a caller's PDF: its form fields, attachments, the catalog's /Lang and
 * signature dictionaries. qpdf parsed the file in its own process under the tools' limits; this only reads
 * the JSON it wrote.
 */

/** A PDF object as qpdf's JSON v2 writes it: strings `u:text` or `b:hex`, names `/Name`, refs `N 0 R`. */
type JsonObject = Record<string, unknown>;

/** A PDF text string of qpdf's JSON as text (null for anything else). */
export function pdfString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (value.startsWith('u:')) return value.slice(2);
  if (value.startsWith('b:')) return Buffer.from(value.slice(2), 'hex').toString('latin1');
  return null;
}

/** A PDF name (`/text#2fxml`) as its text (`text/xml`), without the slash. */
export function pdfName(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  return value
    .slice(1)
    .replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** `N 0 R` → `N` as qpdf's --json-object takes it (null when not a reference). */
export function objectNumber(ref: unknown): string | null {
  const m = typeof ref === 'string' ? /^(\d+) (\d+) R$/.exec(ref) : null;
  return m ? `${m[1]},${m[2]}` : null;
}

export interface QpdfField {
  fullname?: string;
  object?: string;
  parent?: string | null;
  fieldtype?: string | null;
  fieldflags?: number;
  value?: unknown;
  choices?: unknown[];
  ischeckbox?: boolean;
  isradiobutton?: boolean;
  ischoice?: boolean;
  istext?: boolean;
}

export interface QpdfAttachment {
  filespec?: string;
  preferredname?: string;
  preferredcontents?: string;
  description?: unknown;
  streams?: Record<string, { mimetype?: string | null }>;
}

/** The part of `qpdf --json=2` the inspection reads. */
export interface QpdfDocument {
  acroform?: { fields?: QpdfField[] };
  attachments?: Record<string, QpdfAttachment>;
  qpdf?: [unknown, Record<string, { value?: unknown; stream?: { dict?: unknown } }>];
}

export interface FormField {
  name: string;
  type: 'text' | 'checkbox' | 'radio' | 'choice' | 'signature' | 'button';
  value: string | boolean | string[] | null;
  options?: string[];
}

function fieldType(field: QpdfField): FormField['type'] {
  if (field.istext) return 'text';
  if (field.ischeckbox) return 'checkbox';
  if (field.isradiobutton) return 'radio';
  if (field.ischoice) return 'choice';
  return field.fieldtype === '/Sig' ? 'signature' : 'button';
}

/** A field's /Opt (on its widget or its field dictionary): each entry's export value. */
function optionsOf(field: QpdfField, objects: Map<string, JsonObject>): string[] | null {
  for (const ref of [field.object, field.parent]) {
    const opt = ref ? objects.get(ref)?.['/Opt'] : undefined;
    if (Array.isArray(opt))
      return opt.map((entry) => pdfString(Array.isArray(entry) ? entry[0] : entry) ?? '');
  }
  return null;
}

function fieldValue(field: QpdfField, type: FormField['type'], options: string[] | null): FormField['value'] {
  const { value } = field;
  if (type === 'checkbox') return typeof value === 'string' && value.startsWith('/') && value !== '/Off';
  if (type === 'radio') {
    const name = value === '/Off' ? null : pdfName(value);
    // An /Opt array names the buttons by index (pdf-lib writes /0, /1…): the option is the answer.
    return name !== null && options && /^\d+$/.test(name) ? (options[Number(name)] ?? name) : name;
  }
  if (type === 'signature') return null;
  if (Array.isArray(value)) return value.map((v) => pdfString(v) ?? '');
  return pdfString(value);
}

/** Every terminal field once (qpdf lists one entry per widget: a radio group's buttons share its name). */
export function formFields(doc: QpdfDocument, objects: Map<string, JsonObject>): FormField[] {
  const out = new Map<string, FormField>();
  for (const field of doc.acroform?.fields ?? []) {
    const name = field.fullname;
    if (!name || out.has(name)) continue;
    const type = fieldType(field);
    const options = optionsOf(field, objects);
    const entry: FormField = { name, type, value: fieldValue(field, type, options) };
    if (type === 'choice' || type === 'radio') {
      const listed = (field.choices ?? []).map((c) => pdfString(c) ?? (typeof c === 'string' ? c : ''));
      entry.options = listed.length > 0 ? listed : (options ?? []);
    }
    out.set(name, entry);
  }
  return [...out.values()];
}

/** The objects of a second qpdf run (`--json-object`) by reference, `N 0 R` → its value or stream dict. */
export function objectsOf(doc: QpdfDocument): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  for (const [key, entry] of Object.entries(doc.qpdf?.[1] ?? {})) {
    const value = entry.value ?? entry.stream?.dict;
    const ref = key.startsWith('obj:') ? key.slice(4) : key;
    if (value && typeof value === 'object') out.set(ref, value as JsonObject);
  }
  return out;
}

/** The references the second run fetches: the catalog, attachments' file specs and streams, signatures. */
export function referencesToFetch(doc: QpdfDocument): string[] {
  const refs: unknown[] = [];
  const trailer = doc.qpdf?.[1]?.trailer?.value as JsonObject | undefined;
  refs.push(trailer?.['/Root']);
  for (const attachment of Object.values(doc.attachments ?? {}))
    refs.push(attachment.filespec, attachment.preferredcontents);
  for (const field of doc.acroform?.fields ?? []) {
    if (field.fieldtype === '/Sig') refs.push(field.value);
    if (field.ischoice || field.isradiobutton) refs.push(field.object, field.parent);
  }
  return [...new Set(refs.map(objectNumber).filter((n): n is string => n !== null))];
}

export interface AttachmentInfo {
  filename: string;
  mime_type: string | null;
  size: number | null;
  relationship: string | null;
}

export function attachmentsOf(doc: QpdfDocument, objects: Map<string, JsonObject>): AttachmentInfo[] {
  return Object.entries(doc.attachments ?? {}).map(([key, attachment]) => {
    const spec = objects.get(attachment.filespec ?? '');
    const stream = objects.get(attachment.preferredcontents ?? '');
    const params = stream?.['/Params'];
    const size = params && typeof params === 'object' ? (params as JsonObject)['/Size'] : undefined;
    return {
      filename: attachment.preferredname ?? key,
      mime_type: Object.values(attachment.streams ?? {})[0]?.mimetype ?? pdfName(stream?.['/Subtype']),
      size: typeof size === 'number' ? size : null,
      relationship: pdfName(spec?.['/AFRelationship']),
    };
  });
}

/** The catalog's /Lang. */
export function languageOf(doc: QpdfDocument, objects: Map<string, JsonObject>): string | null {
  const trailer = doc.qpdf?.[1]?.trailer?.value as JsonObject | undefined;
  const root = typeof trailer?.['/Root'] === 'string' ? objects.get(trailer['/Root']) : undefined;
  return pdfString(root?.['/Lang']);
}

/** Each signature field's /Reason, by field name. */
export function signatureReasons(
  doc: QpdfDocument,
  objects: Map<string, JsonObject>,
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const field of doc.acroform?.fields ?? []) {
    if (field.fieldtype !== '/Sig' || !field.fullname) continue;
    const sig = typeof field.value === 'string' ? objects.get(field.value) : undefined;
    out.set(field.fullname, pdfString(sig?.['/Reason']));
  }
  return out;
}
