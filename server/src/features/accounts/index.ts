import { forgetUserInQueues } from '@radar/jobs';
import { defineFeature, route } from '../../feature';
import { SecretCodes } from '../../security/secret-codes';
import { accountRoutes } from './account.route';
import { AuthService } from './auth.service';
import { EmailChangeService } from './email-change.service';
import { AccountSelfService } from './self-service.service';
import { sessionRoutes } from './session.route';
import { userRoutes } from './user.route';
import { UserService } from './user.service';

/** Registration, login, the user's own account (data, deletion, e-mail change) and sessions. */
export const accountsFeature = defineFeature({
  repositories: ['users', 'authRecords', 'emailChanges', 'userAdmin'],
  services: ({ parts, options, shared, repositories }) => {
    const { config, logger, jwtSecret, mailer, webBaseUrl } = parts;
    const selfService = new AccountSelfService({
      admin: repositories.userAdmin,
      hasher: shared.hasher,
      userCache: shared.userCache,
      forgetTraces: async (userId) => {
        await shared.rateLimitStore.deleteMentioningOutsideDatabase(userId);
        await forgetUserInQueues(parts.queues.backend, parts.queues, userId);
      },
      logger,
      now: options.clock,
      timeZone: config.timeZone,
    });
    return {
      auth: new AuthService({
        users: repositories.users,
        authRecords: repositories.authRecords,
        hasher: shared.hasher,
        codes: new SecretCodes(jwtSecret),
        mailer,
        webBaseUrl: webBaseUrl.current,
        logger,
        afterAnswer: shared.afterAnswer,
        now: options.clock,
        loginLimiter: shared.loginLimiter,
        userCache: shared.userCache,
        sessions: shared.sessions,
        timeZone: config.timeZone,
      }),
      users: new UserService(repositories.users, shared.sourceRequests, shared.profileEmbedding),
      selfService,
      emailChange: new EmailChangeService({
        changes: repositories.emailChanges,
        users: repositories.users,
        selfService,
        codes: new SecretCodes(jwtSecret),
        mailer,
        userCache: shared.userCache,
        webBaseUrl: webBaseUrl.current,
        logger,
        afterAnswer: shared.afterAnswer,
        timeZone: config.timeZone,
        now: options.clock,
      }),
    };
  },
  routes: ({ auth, users, selfService, emailChange }, { shared }) => [
    route(accountRoutes, {
      auth,
      limits: shared.authRateLimits,
      loginLimiter: shared.loginLimiter,
      cookies: shared.cookies,
    }),
    route(userRoutes, { userService: users, selfService, emailChange, limits: shared.authRateLimits }),
    route(sessionRoutes, { sessions: shared.sessions, auth }),
  ],
});
