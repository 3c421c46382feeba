import { API_PATHS, apiErrorSchema, feedbackRequestSchema, feedbackResponseSchema } from '@radar/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientAddressKey, keyedRateLimit } from '../../plugins/keyed-rate-limit';
import type { FeedbackService } from './feedback.service';

/**
 * Feedback per signed-in account, and per client address without a login (each may send a mail to the
 * operators, so an anonymous script must not flood their mailbox); an IPv6 client by its /64, as the
 * contact form counts it (clientAddressKey).
 */
export const FEEDBACK_LIMITS = {
  perUser: { max: 20, timeWindow: '1 hour' },
  anonymousPerClient: { max: 5, timeWindow: '1 hour' },
};

export const feedbackRoutes: FastifyPluginAsyncZod<{ feedback: FeedbackService }> = async (app, { feedback }) => {
  const perUser = keyedRateLimit(app, FEEDBACK_LIMITS.perUser, (request) => `feedback-user:${request.currentUser?.id}`);
  const perClient = keyedRateLimit(
    app,
    FEEDBACK_LIMITS.anonymousPerClient,
    (request) => `feedback-ip:${clientAddressKey(request)}`,
  );

  /**
   * The page is guarded, but feedback is also taken without a login (it reports 'not logged in'). A
   * token that is sent must be valid, as everywhere: a bad one gets the same 401 as on guarded routes.
   */
  const authenticateIfToken = async (request: FastifyRequest) => {
    if (request.headers.authorization !== undefined) await app.authenticate(request);
  };

  app.post(
    API_PATHS.feedback,
    {
      onRequest: authenticateIfToken,
      preHandler: async (request) => (request.currentUser ? perUser(request) : perClient(request)),
      schema: {
        tags: ['feedback'],
        summary: 'Send feedback (a bug, suggestion, question or other); stored, and mailed to FEEDBACK_TO when set',
        description: 'A bearer token is optional: with one the feedback is recorded under that account.',
        body: feedbackRequestSchema,
        response: { 200: feedbackResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => feedback.send(request.body, request.currentUser),
  );
};
