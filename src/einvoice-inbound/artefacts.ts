import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the official e-invoice artefacts and their compiled rules are: the repository's
 * tools/einvoice-validate/artefacts (XSDs, schematron XSLTs, code lists; also used by the reference
 * validator the tests run) and dist/einvoice-rules (SEF files made by scripts/compile-einvoice-rules.mjs
 * at bootstrap or image build). Both src/einvoice-inbound/ and the bundle's dist/server/ sit two levels
 * below the repository root.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const ARTEFACTS_DIR = path.join(ROOT, 'tools', 'einvoice-validate', 'artefacts');
const RULES_DIR = path.join(ROOT, 'dist', 'einvoice-rules');

/** The SEF of a schematron stylesheet (the naming scripts/compile-einvoice-rules.mjs uses). */
export function sefPathOf(artefact: string): string {
  const file = path.join(RULES_DIR, `${artefact.replaceAll('/', '__')}.sef.json`);
  if (!existsSync(file))
    throw new Error(
      `The compiled e-invoice rules are missing (${path.basename(file)}): run node scripts/compile-einvoice-rules.mjs (npm start and the bootstrap do).`,
    );
  return file;
}

export function artefactPath(artefact: string): string {
  return path.join(ARTEFACTS_DIR, artefact);
}
