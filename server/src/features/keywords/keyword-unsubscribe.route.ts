import { escapeHtml } from '@radar/mail';
import { API_PATHS, keywordAlertUnsubscribeQuerySchema } from '@radar/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { KeywordService } from './keyword.service';

/** Per client address: a token carries 256 bits, so this only keeps scanning cheap. */
const UNSUBSCRIBE_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

const PRODUCT = '科研雷达';

function page(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} - ${PRODUCT}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fb;font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#1f2937">
  <main style="max-width:480px;margin:48px auto;background:#ffffff;border-radius:12px;padding:32px">
    <div style="font-size:18px;font-weight:600;color:#1d4ed8;margin-bottom:24px">${PRODUCT}</div>
    <h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
    ${bodyHtml}
  </main>
</body></html>`;
}

const INVALID_PAGE = page('退订链接无效', '<p>这个退订链接无效或不完整，请从关键词提醒邮件中重新打开退订链接。</p>');

const send = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

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
      if (!token || !keywords.isUnsubscribeTokenValid(token)) return send(reply, 400, INVALID_PAGE);
      const action = `${API_PATHS.keywordAlertUnsubscribe}?token=${encodeURIComponent(token)}`;
      return send(
        reply,
        200,
        page(
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
      if (!(await keywords.unsubscribeFromAlerts(request.query.token))) return send(reply, 400, INVALID_PAGE);
      return send(
        reply,
        200,
        page('已退订关键词提醒', `<p>你将不再收到${PRODUCT}的关键词提醒邮件。你关注的关键词仍然保留。</p>`),
      );
    },
  );
};
