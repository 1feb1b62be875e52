import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  XmlDocument,
  XmlLibError,
  XmlValidateError,
  XsdValidator,
  xmlRegisterInputProvider,
} from 'libxml2-wasm';
import { fsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';
import { ARTEFACTS_DIR, artefactPath } from './artefacts.js';
import type { Finding } from './schematron.js';

/** XSD messages kept per document (the reference validator's cap). */
const MAX_XSD_ERRORS = 50;

const SCHEMAS_DIR = ARTEFACTS_DIR + path.sep;

/**
 * Whether libxml2 may open a file a schema imports or includes: the official artefacts only, so no
 * document can make the parser open a file of its own choosing.
 */
export function isSchemaFile(filename: string): boolean {
  return path.resolve(filename).startsWith(SCHEMAS_DIR);
}

// The library's own file provider, narrowed to the artefacts.
xmlRegisterInputProvider({
  ...fsInputProviders,
  match: (filename) => isSchemaFile(filename) && fsInputProviders.match(filename),
});

/**
 * The KSeF FA(3) schema imports its base types by an absolute crd.gov.pl URL. Those files are vendored
 * unmodified beside it (ksef/FA3/bazowe/, as the reference validator's XML catalog maps them), so the URL
 * is answered from there and nothing is fetched.
 */
const KSEF_BASE_TYPES_URL = 'http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/';

export function ksefBaseTypeFile(url: string): string | undefined {
  if (!url.startsWith(KSEF_BASE_TYPES_URL)) return undefined;
  const name = url.slice(KSEF_BASE_TYPES_URL.length);
  return /^[A-Za-z0-9_-]+\.xsd$/.test(name) ? artefactPath(`ksef/FA3/bazowe/${name}`) : undefined;
}

xmlRegisterInputProvider({
  ...fsInputProviders,
  match: (url) => ksefBaseTypeFile(url) !== undefined,
  open: (url) => fsInputProviders.open(ksefBaseTypeFile(url) ?? ''),
});

/**
 * Compiled schemas by artefact, kept for the thread's life: compiling the UBL or CII set takes about half
 * a second, checking a document against it a few milliseconds.
 */
const validators = new Map<string, XsdValidator>();

/** Compiles a schema set ahead of the first document that needs it. */
export function preloadXsd(xsd: string): void {
  validatorOf(xsd);
}

function validatorOf(xsd: string): XsdValidator {
  let validator = validators.get(xsd);
  if (validator === undefined) {
    const file = artefactPath(xsd);
    const schema = XmlDocument.fromBuffer(readFileSync(file), { url: file });
    try {
      validator = XsdValidator.fromDoc(schema);
    } finally {
      schema.dispose();
    }
    validators.set(xsd, validator);
  }
  return validator;
}

/**
 * XSD validation with libxml2 (compiled to WebAssembly), in the calling thread: the inbound pool's
 * worker, whose deadline and heap cap bound it. The document arrives already read as well-formed XML
 * without a DOCTYPE (readReceived, xml-dom.ts); it is parsed again here without entity or DTD loading.
 */
export function checkXsd(xml: string, xsd: string): Finding[] {
  const validator = validatorOf(xsd);
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (err) {
    if (err instanceof XmlLibError) return findingsOf(err);
    throw err;
  }
  try {
    validator.validate(doc);
    return [];
  } catch (err) {
    if (err instanceof XmlValidateError) return findingsOf(err);
    throw err;
  } finally {
    doc.dispose();
  }
}

function findingsOf(error: XmlLibError): Finding[] {
  return error.details.slice(0, MAX_XSD_ERRORS).map((detail) => ({
    rule: 'XSD',
    severity: 'error',
    message: detail.message.trim(),
    location: detail.line > 0 ? `line ${detail.line}` : '/',
  }));
}
