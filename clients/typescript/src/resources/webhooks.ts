import { unwrap } from '../core.js';
import { beforePages, type PagedList, singlePage } from '../pagination.js';
import type { Body, Query, WebhookDelivery, WebhookEndpoint } from '../types.js';
import { type ConstructEventOptions, constructEvent, type WebhookEvent } from '../webhooks.js';
import { Resource } from './resource.js';

/** Webhook endpoints, their deliveries, and checking what they receive: /webhooks… */
export class Webhooks extends Resource {
  readonly deliveries = new WebhookDeliveries(this.core);

  /** GET /webhooks. */
  list(): PagedList<WebhookEndpoint, never> {
    return singlePage(() => unwrap(this.core.api.GET('/webhooks')));
  }

  /** POST /webhooks: the answer's `secret` is the only time it is shown in full; keep it to verify deliveries. */
  async create(body: Body<'createWebhookEndpoint'>): Promise<WebhookEndpoint> {
    return unwrap(this.core.api.POST('/webhooks', { body }));
  }

  /** GET /webhooks/{id}. */
  async retrieve(id: string): Promise<WebhookEndpoint> {
    return unwrap(this.core.api.GET('/webhooks/{id}', { params: { path: { id } } }));
  }

  /** PUT /webhooks/{id}: url, events, description, or `enabled` (true switches a disabled one back on). */
  async update(id: string, body: Body<'updateWebhookEndpoint'>): Promise<WebhookEndpoint> {
    return unwrap(this.core.api.PUT('/webhooks/{id}', { params: { path: { id } }, body }));
  }

  /** DELETE /webhooks/{id}. */
  async delete(id: string): Promise<void> {
    await unwrap(this.core.api.DELETE('/webhooks/{id}', { params: { path: { id } } }));
  }

  /** POST /webhooks/{id}/rotate-secret: a new secret; the old one keeps signing too for 24 hours. */
  async rotateSecret(id: string): Promise<WebhookEndpoint> {
    return unwrap(this.core.api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id } } }));
  }

  /** POST /webhooks/{id}/test: one sample `pdf.created` event with `test_event: true`, not retried. */
  async sendTestEvent(id: string): Promise<{ delivery_id: string }> {
    return unwrap(this.core.api.POST('/webhooks/{id}/test', { params: { path: { id } } }));
  }

  /**
   * The event of a delivery, once its `Quire-Signature` verifies against the raw body (before any JSON
   * parsing) with the secret (or either secret during a rotation); throws QuireError
   * `webhook_signature_invalid` otherwise.
   */
  constructEvent(
    rawBody: string | Uint8Array,
    signatureHeader: string | null | undefined,
    secret: string | readonly string[],
    options: ConstructEventOptions = {},
  ): WebhookEvent {
    return constructEvent(rawBody, signatureHeader, secret, options);
  }
}

/** /webhooks/{id}/deliveries. */
export class WebhookDeliveries extends Resource {
  /** GET /webhooks/{id}/deliveries, newest first, every page. */
  list(
    endpointId: string,
    query: Omit<Query<'listWebhookDeliveries'>, 'before'> = {},
  ): PagedList<WebhookDelivery, string> {
    return beforePages((before) =>
      unwrap(
        this.core.api.GET('/webhooks/{id}/deliveries', {
          params: { path: { id: endpointId }, query: { ...query, ...(before ? { before } : {}) } },
        }),
      ),
    );
  }

  /** POST /webhooks/{id}/deliveries/{deliveryId}/retry: sends the same event again now. */
  async retry(endpointId: string, deliveryId: string): Promise<{ delivery_id: string }> {
    return unwrap(
      this.core.api.POST('/webhooks/{id}/deliveries/{deliveryId}/retry', {
        params: { path: { id: endpointId, deliveryId } },
      }),
    );
  }
}
