import { Type } from 'typebox';
import { type Inspection, inspectPdf } from './inspect.js';
import { MAX_STEPS, type TransformStep, TransformStepBody } from './schema.js';
import { type OpenedSource, openSource, type SourceScope } from './source.js';
import { checkSplitShape, partsOf, splitParts } from './split.js';
import { toolBudget } from './tools.js';
import { checkStepOrder, runSteps, type Transformed } from './transform.js';

/**
 * The PDF tools over a file on this machine (`quire pdf …`): the API's own code and limits, without a team —
 * no stored documents to read or merge, no certificates to sign with, no test mark, nothing recorded.
 */
export interface LocalPdf {
  /** What `--steps` must be: the API's steps. */
  stepsSchema: typeof StepsSchema;
  inspect(bytes: Buffer, options: { password?: string | undefined; text: boolean }): Promise<Inspection>;
  transform(
    bytes: Buffer,
    steps: unknown[],
    options: { password?: string | undefined },
  ): Promise<Transformed>;
  split(
    bytes: Buffer,
    options: { ranges?: string[] | undefined; every?: number | undefined; password?: string | undefined },
  ): Promise<Array<{ pdf: Buffer; pages: number }>>;
}

const StepsSchema = Type.Array(TransformStepBody, { minItems: 1, maxItems: MAX_STEPS });

const NO_TEAM: SourceScope = {
  teamId: '',
  test: false,
  documents: { findForTeam: async () => null, readStoredFile: async () => null },
  budget: toolBudget(),
};

function open(bytes: Buffer, password: string | undefined): Promise<OpenedSource> {
  return openSource({ pdf_base64: bytes.toString('base64') }, password, NO_TEAM);
}

export async function localPdfTools(): Promise<LocalPdf> {
  return {
    stepsSchema: StepsSchema,
    inspect: async (bytes, options) => inspectPdf(await open(bytes, options.password), options),
    transform: async (bytes, steps, options) => {
      const checked = steps as TransformStep[];
      checkStepOrder(checked);
      return runSteps(await open(bytes, options.password), checked, {
        teamId: '',
        test: false,
        now: new Date(),
        storedPdfs: { find: async () => null },
        signingKeys: {
          signingKey: () =>
            Promise.reject(new Error('"sign" needs a team certificate: use POST /v1/pdf/transform.')),
        },
      });
    },
    split: async (bytes, options) => {
      const request = {
        ...(options.ranges ? { ranges: options.ranges } : {}),
        ...(options.every ? { every: options.every } : {}),
      };
      checkSplitShape(request);
      const source = await open(bytes, options.password);
      const parts = partsOf(source.pages, request);
      const pdfs = await splitParts(source, parts);
      return pdfs.map((pdf, i) => ({ pdf, pages: parts[i]?.length ?? 0 }));
    },
  };
}
