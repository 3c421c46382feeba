import {
  API_PATHS,
  apiErrorSchema,
  deliveryFeedTokenResponseSchema,
  deliverySettingsSchema,
  deliverySettingsUpdateSchema,
  deliveryWebhookTestResponseSchema,
  deliveryWebhookUpdateSchema,
} from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth';
import { guardedRoutes } from '../../plugins/guarded-route';
import { keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { DeliveryService } from './delivery.service';

/** Test messages per reader: each is a request to the platform, which rate-limits robots itself (about 20 a minute). */
const WEBHOOK_TEST_LIMIT = { max: 5, timeWindow: '1 minute' };

const errorsOf = { 400: apiErrorSchema };

/** The signed-in reader's delivery settings (not in the spec): schedule, mail, robot webhook, feed address. */
export const deliveryRoutes: FastifyPluginAsyncZod<{ delivery: DeliveryService }> = async (app, { delivery }) => {
  const guarded = guardedRoutes(app, 'delivery');
  const testLimit = keyedRateLimit(
    app,
    WEBHOOK_TEST_LIMIT,
    (request) => `delivery-webhook-test:${request.currentUser?.id ?? request.ip}`,
  );

  app.get(
    API_PATHS.deliverySettings,
    guarded({
      summary: 'Digest schedule, mail switch, filters, feed and webhook state',
      response: { 200: deliverySettingsSchema },
    }),
    async (request) => delivery.settings(requireUser(request)),
  );

  app.put(
    API_PATHS.deliverySettings,
    guarded({
      summary: 'Save the digest schedule (off, daily, weekly; weekday, hour, time zone), mail switch and filters',
      body: deliverySettingsUpdateSchema,
      response: { 200: deliverySettingsSchema, ...errorsOf },
    }),
    async (request) => delivery.saveSettings(requireUser(request), request.body),
  );

  app.put(
    API_PATHS.deliveryWebhook,
    guarded({
      summary: "Save a WeCom, Feishu or DingTalk robot webhook (the platform's host, https); 400 otherwise",
      body: deliveryWebhookUpdateSchema,
      response: { 200: deliverySettingsSchema, ...errorsOf },
    }),
    async (request) => delivery.saveWebhook(requireUser(request), request.body),
  );

  app.delete(
    API_PATHS.deliveryWebhook,
    guarded({
      summary: 'Remove the robot webhook',
      response: { 200: deliverySettingsSchema },
    }),
    async (request) => delivery.removeWebhook(requireUser(request)),
  );

  app.post(
    API_PATHS.deliveryWebhookTest,
    guarded(
      {
        summary: 'Send a test message to the saved robot webhook; 400 with the reason when it fails',
        response: { 200: deliveryWebhookTestResponseSchema, ...errorsOf, 429: apiErrorSchema },
      },
      { preHandler: testLimit },
    ),
    async (request) => delivery.testWebhook(requireUser(request)),
  );

  app.post(
    API_PATHS.deliveryFeedToken,
    guarded({
      summary: 'A new secret Atom feed address (shown once); the previous one stops working',
      response: { 200: deliveryFeedTokenResponseSchema },
    }),
    async (request) => delivery.regenerateFeed(requireUser(request)),
  );

  app.delete(
    API_PATHS.deliveryFeedToken,
    guarded({
      summary: 'Turn the Atom feed off (its address stops working)',
      response: { 200: deliverySettingsSchema },
    }),
    async (request) => delivery.revokeFeed(requireUser(request)),
  );
};
