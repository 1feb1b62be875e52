import type { components, operations } from './schema.js';

/** Every named schema of the API (`Schemas['Template']`, …). */
export type Schemas = components['schemas'];

export type PdfRequest = Schemas['PdfRequest'];
export type Document = Schemas['Document'];
export type DocumentResult = Schemas['DocumentResult'];
export type DocumentActivity = Schemas['DocumentActivity'];
export type QueuedDocument = Schemas['QueuedDocument'];
export type ErrorBody = Schemas['Error'];
export type Template = Schemas['Template'];
export type TemplateSummary = Schemas['TemplateSummary'];
export type TemplateCreate = Schemas['TemplateCreate'];
export type TemplateUpdate = Schemas['TemplateUpdate'];
export type TemplateVersion = Schemas['TemplateVersion'];
export type TemplateFields = Schemas['TemplateFields'];
export type TemplateDraftPreview = Schemas['TemplateDraftPreview'];
export type TemplateDraftPreviewPages = Schemas['TemplateDraftPreviewPages'];
export type TemplatePreviewPages = Schemas['TemplatePreviewPages'];
export type Batch = Schemas['Batch'];
export type BatchItem = Schemas['BatchItem'];
export type BatchRequest = Schemas['BatchRequest'];
export type BrandAsset = Schemas['BrandAsset'];
export type UploadBrandAsset = Schemas['UploadBrandAsset'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type ApiKey = Schemas['ApiKey'];
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type CreateApiKeyRequest = Schemas['CreateApiKeyRequest'];
export type Member = Schemas['Member'];
/** A member as a role change or removal left them, with the API keys they made (and which were revoked). */
export type MemberChange = Schemas['MemberChange'];
export type Invitation = Schemas['Invitation'];
export type InvitationRequest = Schemas['InvitationRequest'];
export type Account = Schemas['Account'];
export type Me = Schemas['Me'];
export type Usage = Schemas['Usage'];
export type EventType = Schemas['EventType'];
export type DailyUsage = Schemas['DailyUsage'];
export type TemplateStarter = Schemas['TemplateStarter'];
export type Certificate = Schemas['Certificate'];
export type PdfInspectRequest = Schemas['PdfInspectRequest'];
export type PdfInspection = Schemas['PdfInspection'];
export type PdfTransformRequest = Schemas['PdfTransformRequest'];
export type PdfTransformStep = Schemas['PdfTransformStep'];
export type PdfSplitRequest = Schemas['PdfSplitRequest'];
export type UploadCertificateRequest = Schemas['UploadCertificateRequest'];
export type EInvoiceValidation = Schemas['EInvoiceValidation'];
export type EInvoiceParse = Schemas['EInvoiceParse'];

/** The query of an operation (`Query<'listDocuments'>`), without what the list iterator sets itself. */
export type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

/** The JSON body of an operation. */
export type Body<K extends keyof operations> = operations[K] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The JSON answer of an operation for a status. */
export type Answer<K extends keyof operations, S extends number> =
  operations[K]['responses'] extends Record<S, { content: { 'application/json': infer R } }> ? R : never;
