import { defineFeature, route } from '../../feature';
import { contactRoutes } from './contact.route';
import { feedbackRoutes } from './feedback.route';
import { FeedbackService } from './feedback.service';

/** Signed-in feedback and the public contact form, stored and mailed. */
export const feedbackFeature = defineFeature({
  repositories: ['feedback'],
  services: ({ parts, options, shared, repositories }) => ({
    feedback: new FeedbackService({
      feedback: repositories.feedback,
      mailer: parts.mailer,
      feedbackTo: parts.config.feedbackTo,
      supportEmail: parts.config.supportEmail,
      logger: parts.logger,
      afterAnswer: shared.afterAnswer,
      now: options.clock,
    }),
  }),
  routes: ({ feedback }) => [route(feedbackRoutes, { feedback }), route(contactRoutes, { feedback })],
});
