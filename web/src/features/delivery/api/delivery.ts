import {
  API_PATHS,
  type DeliveryFeedTokenResponse,
  type DeliverySettings,
  type DeliveryWebhookTestResponse,
  type WebhookPlatform,
} from '@radar/shared';
import { api } from '@/lib/api-client';

/*
 * Delivery of recommendations (beyond the spec: a backend without it answers 404 and /my leaves the
 * section out): the digest schedule, the personal Atom feed and a group robot webhook.
 */

export const DELIVERY_SETTINGS_QUERY_KEY = ['delivery', 'settings'] as const;

/** What PUT /api/auth/delivery/ takes (the filters come from the /papers and /news settings in this browser). */
export type DeliveryScheduleInput = Pick<
  DeliverySettings,
  'frequency' | 'weekday' | 'hour' | 'time_zone' | 'email_enabled'
> &
  Partial<Pick<DeliverySettings, 'paper_filters' | 'news_filters'>>;

export function getDeliverySettings(options: { signal?: AbortSignal } = {}): Promise<DeliverySettings> {
  return api.get<DeliverySettings>(API_PATHS.deliverySettings, { signal: options.signal });
}

export function saveDeliverySettings(input: DeliveryScheduleInput): Promise<DeliverySettings> {
  return api.put<DeliverySettings>(API_PATHS.deliverySettings, input);
}

export function saveDeliveryWebhook(input: {
  platform: WebhookPlatform;
  url: string;
  secret?: string;
}): Promise<DeliverySettings> {
  return api.put<DeliverySettings>(API_PATHS.deliveryWebhook, input);
}

export function removeDeliveryWebhook(): Promise<DeliverySettings> {
  return api.delete<DeliverySettings>(API_PATHS.deliveryWebhook);
}

export function testDeliveryWebhook(): Promise<DeliveryWebhookTestResponse> {
  return api.post<DeliveryWebhookTestResponse>(API_PATHS.deliveryWebhookTest);
}

/** A new secret feed address (the old one stops working); shown once. */
export function regenerateDeliveryFeed(): Promise<DeliveryFeedTokenResponse> {
  return api.post<DeliveryFeedTokenResponse>(API_PATHS.deliveryFeedToken);
}

export function revokeDeliveryFeed(): Promise<DeliverySettings> {
  return api.delete<DeliverySettings>(API_PATHS.deliveryFeedToken);
}
