import { attachments } from './attachments.js';
import { merge } from './merge.js';
import { metadata } from './metadata.js';
import { pdfA } from './pdf-a.js';
import { pdfUa } from './pdf-ua.js';
import { protect } from './protect.js';
import { sign } from './sign.js';
import { stamp } from './stamp.js';
import { xmp } from './xmp.js';

/**
 * Every finishing step, in the order they plan and apply (each phase over all of them: step.ts). Adding a
 * step is one file in this folder and one line here (and its request fields in schema.ts's FinishingFields).
 */
export const STEPS = [merge, metadata, attachments, stamp, pdfUa, pdfA, xmp, protect, sign] as const;

export type Step = (typeof STEPS)[number];
