import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { memoryPages, validateXML, type XMLFileInfo } from 'xmllint-wasm';
import { artefactPath } from './artefacts.js';
import type { Finding } from './schematron.js';

/** XSD messages kept per document (the reference validator's cap). */
const MAX_XSD_ERRORS = 50;
/** libxml2's WebAssembly memory cap for one validation; the worker's heap cap is the backstop. */
const XSD_MAX_MEMORY = 256 * memoryPages.MiB;

interface SchemaSet {
  main: XMLFileInfo;
  preload: XMLFileInfo[];
}

const sets = new Map<string, SchemaSet>();

function xsdFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return xsdFiles(full);
    return name.endsWith('.xsd') ? [full] : [];
  });
}

/**
 * The main XSD with every schema beside it (xmllint-wasm reads no files: imports are resolved among
 * the preloaded ones by relative name). The set's root is the schema's family directory: the UBL
 * maindoc schemas import ../common/….
 */
function schemaSetOf(xsd: string): SchemaSet {
  let set = sets.get(xsd);
  if (set === undefined) {
    const family = xsd.startsWith('xsd/') ? xsd.split('/').slice(0, 2).join('/') : path.dirname(xsd);
    const root = artefactPath(family);
    const main = artefactPath(xsd);
    const info = (file: string): XMLFileInfo => ({
      fileName: path.relative(root, file),
      contents: readFileSync(file, 'utf8'),
    });
    set = {
      main: info(main),
      preload: xsdFiles(root)
        .filter((f) => f !== main)
        .map(info),
    };
    sets.set(xsd, set);
  }
  return set;
}

/** XSD validation with libxml2 (xmllint compiled to WebAssembly, run in a thread of its own). */
export async function checkXsd(xml: string, xsd: string): Promise<Finding[]> {
  const set = schemaSetOf(xsd);
  const result = await validateXML({
    xml: [{ fileName: 'invoice.xml', contents: xml }],
    schema: [set.main],
    preload: set.preload,
    maxMemoryPages: XSD_MAX_MEMORY,
  });
  return result.errors.slice(0, MAX_XSD_ERRORS).map((error) => ({
    rule: 'XSD',
    severity: 'error',
    message: error.message.replace(/^invoice\.xml:\d+:\s*/, '').trim(),
    location: error.loc ? `line ${error.loc.lineNumber}` : '/',
  }));
}
