import { escapeHtml } from '@radar/mail';
import { API_PATHS, keywordAlertUnsubscribeQuerySchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PRODUCT, publicPage, sendPublicPage } from '../../presenters/public-page';
import type { KeywordService } from './keyword.service';

/** Per client address: a token carries 256 bits, so this only keeps scanning cheap. */
const UNSUBSCRIBE_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

const INVALID_PAGE = publicPage(
  '退订链接无效',
  '<p>这个退订链接无效或不完整，请从关键词提醒邮件中重新打开退订链接。</p>',
);

/**
 * The unsubscribe link of keyword alert mails, usable without logging in: the signed token names the
 * user. GET shows a confirmation page (a link opened by a mail scanner changes nothing); POST, from that
 * page's button or from a mail client's one-click unsubscribe (RFC 8058: List-Unsubscribe-Post), turns
 * off alerts on all of the user's keywords. A bad token gets a 400 page.
 */
export const keywordUnsubscribeRoutes: FastifyPluginAsyncZod<{ keywords: KeywordService }> = async (
  app,
  { keywords },
) => {
  // Mail clients POST `List-Unsubscribe=One-Click` as a form (urlencoded or multipart); the body says
  // nothing the URL does not, so any body of this route's POST is read and ignored (JSON keeps its parser).
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_request, _body, done) =>
    done(null, undefined),
  );

  const schema = {
    tags: ['keywords'],
    querystring: keywordAlertUnsubscribeQuerySchema,
  };

  app.get(
    API_PATHS.keywordAlertUnsubscribe,
    {
      config: { rateLimit: UNSUBSCRIBE_RATE_LIMIT },
      schema: { ...schema, summary: 'Confirmation page of the unsubscribe link in keyword alert mails (HTML)' },
    },
    async (request, reply) => {
      const { token } = request.query;
      if (!token || !keywords.isUnsubscribeTokenValid(token)) return sendPublicPage(reply, 400, INVALID_PAGE);
      const action = `${API_PATHS.keywordAlertUnsubscribe}?token=${encodeURIComponent(token)}`;
      return sendPublicPage(
        reply,
        200,
        publicPage(
          '退订关键词提醒',
          `<p>确认后，你将不再收到${PRODUCT}的关键词提醒邮件。你关注的关键词会保留。</p>
    <form method="post" action="${escapeHtml(action)}" style="margin-top:24px">
      <button type="submit" style="background:#1d4ed8;color:#ffffff;border:0;border-radius:8px;padding:12px 24px;font-size:15px;cursor:pointer">确认退订</button>
    </form>`,
        ),
      );
    },
  );

  app.post(
    API_PATHS.keywordAlertUnsubscribe,
    {
      config: { rateLimit: UNSUBSCRIBE_RATE_LIMIT },
      schema: { ...schema, summary: 'Unsubscribe from keyword alert mails (the page, or RFC 8058 one-click); HTML' },
    },
    async (request, reply) => {
      if (!(await keywords.unsubscribeFromAlerts(request.query.token))) return sendPublicPage(reply, 400, INVALID_PAGE);
      return sendPublicPage(
        reply,
        200,
        publicPage('已退订关键词提醒', `<p>你将不再收到${PRODUCT}的关键词提醒邮件。你关注的关键词仍然保留。</p>`),
      );
    },
  );
};
