import {
  API_PATHS,
  deliveryFeedTokenResponseSchema,
  deliverySettingsSchema,
  deliverySettingsUpdateSchema,
  deliveryWebhookTestResponseSchema,
  deliveryWebhookUpdateSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedRouteTable } from '../../plugins/guarded-route';
import type { DeliveryService } from './delivery.service';

/** Test messages per reader: each is a request to the platform, which rate-limits robots itself (about 20 a minute). */
const WEBHOOK_TEST_LIMIT = { key: 'delivery-webhook-test', max: 5, timeWindow: '1 minute' };

/** The signed-in reader's delivery settings (not in the spec): schedule, mail, robot webhook, feed address. */
export const deliveryRoutes: FastifyPluginAsyncZod<{ delivery: DeliveryService }> = async (app, { delivery }) => {
  const routes = guardedRouteTable(app, 'delivery');
  const settings = { 200: deliverySettingsSchema };

  routes.get(API_PATHS.deliverySettings, {
    summary: 'Digest schedule, mail switch, filters, feed and webhook state',
    answers: settings,
    handle: async ({ user }) => delivery.settings(user),
  });
  routes.put(API_PATHS.deliverySettings, {
    summary: 'Save the digest schedule (off, daily, weekly; weekday, hour, time zone), mail switch and filters',
    body: deliverySettingsUpdateSchema,
    answers: settings,
    errors: [400],
    handle: async ({ user, body }) => delivery.saveSettings(user, body),
  });
  routes.put(API_PATHS.deliveryWebhook, {
    summary: "Save a WeCom, Feishu or DingTalk robot webhook (the platform's host, https); 400 otherwise",
    body: deliveryWebhookUpdateSchema,
    answers: settings,
    errors: [400],
    handle: async ({ user, body }) => delivery.saveWebhook(user, body),
  });
  routes.delete(API_PATHS.deliveryWebhook, {
    summary: 'Remove the robot webhook',
    answers: settings,
    handle: async ({ user }) => delivery.removeWebhook(user),
  });
  routes.post(API_PATHS.deliveryWebhookTest, {
    summary: 'Send a test message to the saved robot webhook; 400 with the reason when it fails',
    answers: { 200: deliveryWebhookTestResponseSchema },
    errors: [400],
    limit: WEBHOOK_TEST_LIMIT,
    handle: async ({ user }) => delivery.testWebhook(user),
  });
  routes.post(API_PATHS.deliveryFeedToken, {
    summary: 'A new secret Atom feed address (shown once); the previous one stops working',
    answers: { 200: deliveryFeedTokenResponseSchema },
    handle: async ({ user }) => delivery.regenerateFeed(user),
  });
  routes.delete(API_PATHS.deliveryFeedToken, {
    summary: 'Turn the Atom feed off (its address stops working)',
    answers: settings,
    handle: async ({ user }) => delivery.revokeFeed(user),
  });
};
