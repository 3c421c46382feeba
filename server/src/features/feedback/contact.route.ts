import { API_PATHS, apiErrorSchema, contactRequestSchema, contactResponseSchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RateLimit } from '../../plugins/keyed-rate-limit';
import type { FeedbackService } from './feedback.service';

/**
 * Per client address, counted in the shared store like every limit: each message may mail the
 * operators, so a script must not flood their mailbox. Invalid requests count too.
 */
export const CONTACT_RATE_LIMIT: RateLimit = { max: 5, timeWindow: '1 hour' };

/** The contact form of /contact: public, no login (the page is for people who cannot sign in, too). */
export const contactRoutes: FastifyPluginAsyncZod<{ feedback: FeedbackService }> = async (app, { feedback }) => {
  app.post(
    API_PATHS.contact,
    {
      config: { rateLimit: CONTACT_RATE_LIMIT },
      schema: {
        tags: ['feedback'],
        summary:
          'Send a message from the contact page; stored, and mailed to FEEDBACK_TO (else SUPPORT_EMAIL); with neither, only stored (delivery: stored)',
        description:
          'Public: no login; a bearer token is ignored. `email` is where the operators answer. `website` must stay empty (bots fill it).',
        body: contactRequestSchema,
        response: { 200: contactResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema, 503: apiErrorSchema },
      },
    },
    async (request) => feedback.contact(request.body, { userAgent: request.headers['user-agent'] }),
  );
};
