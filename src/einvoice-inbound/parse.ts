import { type Profile, readKsef, type Standard } from '../einvoice/index.js';
import type { ValidationPlan } from './plan.js';
import { standardOf } from './plan.js';
import { readCii } from './read-cii.js';
import type { ParsedInvoice } from './read-model.js';
import { readUbl } from './read-ubl.js';
import { planOf, readReceived } from './validate.js';

/** POST /v1/e-invoices/parse's answer. */
export interface ParseReport {
  standard: Standard;
  profile: Profile;
  invoice: ParsedInvoice;
  totals: Record<string, string>;
  warnings: string[];
}

/** The `profile` POST /v1/pdf takes for what the document declares (Peppol and plain EN 16931 are en16931). */
function modelProfile(plan: ValidationPlan): Profile {
  const { profile } = plan;
  if (profile === 'fr-ctc') return frenchProfile(plan.base);
  if (profile === 'hr-cius') return 'en16931';
  if (profile === 'xrechnung-extension') return 'xrechnung';
  if (profile === 'peppol' || profile === 'unknown') return 'en16931';
  if (profile === 'fa3') return 'fa3';
  return profile;
}

/** Reads a received e-invoice (XML or Factur-X/ZUGFeRD PDF) into Quire's e-invoice model. Checks nothing. */
export async function parseReceived(bytes: Uint8Array): Promise<ParseReport> {
  const received = await readReceived(bytes);
  const { plan } = planOf(received);
  const read =
    received.syntax === 'ksef'
      ? readKsef(received.root)
      : received.syntax === 'cii'
        ? readCii(received.root)
        : readUbl(received.root);
  const warnings = [...plan.notes, ...read.warnings];
  if (plan.profile === 'xrechnung-extension')
    warnings.push(
      'XRechnung extension documents read as XRechnung: elements of the extension are not in the model.',
    );
  return {
    standard: standardOf(plan, received.pdf?.facts.attachment.name),
    profile: modelProfile(plan),
    invoice: read.invoice,
    totals: read.totals,
    warnings,
  };
}

/** A French document's profile for POST /v1/pdf: EXTENDED-CTC-FR, or the Factur-X/EN 16931 profile underneath. */
function frenchProfile(base: string | undefined): Profile {
  if (base === 'extended-ctc-fr') return 'extended-ctc-fr';
  if (base === 'basic-wl' || base === 'extended' || base === 'basic' || base === 'minimum') return base;
  return 'en16931';
}
