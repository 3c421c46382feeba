import { MailLinkTokens } from '@radar/mail';
import { defineFeature, route } from '../../feature';
import { keywordRoutes } from './keyword.route';
import { KeywordService } from './keyword.service';
import { keywordUnsubscribeRoutes } from './keyword-unsubscribe.route';

/** Followed keywords, their alerts' settings and the alert mails' unsubscribe page. */
export const keywordsFeature = defineFeature({
  repositories: ['keywords'],
  services: ({ parts, repositories }) => ({
    keywords: new KeywordService({
      keywords: repositories.keywords,
      linkTokens: new MailLinkTokens(parts.jwtSecret),
      logger: parts.logger,
    }),
  }),
  routes: ({ keywords }) => [route(keywordRoutes, { keywords }), route(keywordUnsubscribeRoutes, { keywords })],
  // Chinese keywords followed before keywords were glossed get their English once, after the server
  // listens (alerts and reasons match it from then on); a failure is retried at the next start.
  onListen: async ({ keywords }, { parts }) => {
    void keywords.glossFollowedKeywords().then(
      (glossed) => glossed > 0 && parts.logger.info({ glossed }, 'glossed Chinese keywords followed before glossing'),
      (error: Error) =>
        parts.logger.warn({ err: error.message }, 'Chinese keywords not glossed; retried at the next start'),
    );
  },
});
