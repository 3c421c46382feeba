import { MailLinkTokens } from '@radar/mail';
import { defineFeature, route } from '../../feature';
import { deliveryRoutes } from './delivery.route';
import { DeliveryService } from './delivery.service';
import { deliveryPublicRoutes } from './delivery-public.route';

/** Digest mail settings, the personal Atom feed, robot webhooks, and their public endpoints. */
export const deliveryFeature = defineFeature({
  repositories: ['deliveries', 'users'],
  services: ({ parts, options, shared, repositories }) => ({
    delivery: new DeliveryService({
      deliveries: repositories.deliveries,
      users: repositories.users,
      pipelineFor: shared.pipelines,
      linkTokens: new MailLinkTokens(parts.jwtSecret),
      webBaseUrl: parts.webBaseUrl.current,
      webhookTestOrigin: parts.config.webhookTestOrigin,
      logger: parts.logger,
      now: options.clock,
    }),
  }),
  routes: ({ delivery }) => [route(deliveryRoutes, { delivery }), route(deliveryPublicRoutes, { delivery })],
});
