import { escapeHtml } from '@radar/mail';
import { API_PATHS, deliveryFeedParamsSchema, deliveryUnsubscribeQuerySchema } from '@radar/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DeliveryService } from './delivery.service';

/** Per client address: tokens carry 256 bits, so this only keeps scanning cheap (feed readers poll far less). */
const PUBLIC_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

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

const INVALID_PAGE = page('退订链接无效', '<p>这个退订链接无效或不完整，请从推送邮件中重新打开退订链接。</p>');

const sendPage = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

/**
 * What works without login: the personal Atom feed (its secret token is the credential) and the digest
 * mail's unsubscribe link (a signed token). GET of the link shows a confirmation page (a mail scanner
 * opening it changes nothing); POST, from that page or a mail client's one-click unsubscribe (RFC 8058),
 * turns the digest mail off.
 */
export const deliveryPublicRoutes: FastifyPluginAsyncZod<{ delivery: DeliveryService }> = async (app, { delivery }) => {
  // Mail clients POST `List-Unsubscribe=One-Click` as a form; the body says nothing the URL does not.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_request, _body, done) =>
    done(null, undefined),
  );

  app.get(
    API_PATHS.deliveryFeed,
    {
      config: { rateLimit: PUBLIC_RATE_LIMIT },
      schema: {
        tags: ['delivery'],
        summary: "A reader's recommendations as Atom 1.0, by the secret address from /my (no login); 404 otherwise",
        params: deliveryFeedParamsSchema,
      },
    },
    async (request, reply) => {
      const xml = await delivery.feed(request.params.token);
      if (!xml) {
        return reply
          .status(404)
          .header('cache-control', 'no-store')
          .send({ code: 'NOT_FOUND', message: '订阅地址无效或已重新生成，请到“我的”页面复制新的地址' });
      }
      return reply
        .header('cache-control', 'private, max-age=900')
        .header('x-robots-tag', 'noindex')
        .type('application/atom+xml; charset=utf-8')
        .send(xml);
    },
  );

  const unsubscribeSchema = { tags: ['delivery'], querystring: deliveryUnsubscribeQuerySchema };

  app.get(
    API_PATHS.deliveryUnsubscribe,
    {
      config: { rateLimit: PUBLIC_RATE_LIMIT },
      schema: { ...unsubscribeSchema, summary: 'Confirmation page of the digest mail unsubscribe link (HTML)' },
    },
    async (request, reply) => {
      const { token } = request.query;
      if (!token || !delivery.isUnsubscribeTokenValid(token)) return sendPage(reply, 400, INVALID_PAGE);
      const action = `${API_PATHS.deliveryUnsubscribe}?token=${encodeURIComponent(token)}`;
      return sendPage(
        reply,
        200,
        page(
          '退订推送邮件',
          `<p>确认后，你将不再收到${PRODUCT}的推荐推送邮件。订阅地址和机器人推送不受影响。</p>
    <form method="post" action="${escapeHtml(action)}" style="margin-top:24px">
      <button type="submit" style="background:#1d4ed8;color:#ffffff;border:0;border-radius:8px;padding:12px 24px;font-size:15px;cursor:pointer">确认退订</button>
    </form>`,
        ),
      );
    },
  );

  app.post(
    API_PATHS.deliveryUnsubscribe,
    {
      config: { rateLimit: PUBLIC_RATE_LIMIT },
      schema: {
        ...unsubscribeSchema,
        summary: 'Unsubscribe from digest mails (the page, or RFC 8058 one-click); HTML',
      },
    },
    async (request, reply) => {
      if (!(await delivery.unsubscribe(request.query.token))) return sendPage(reply, 400, INVALID_PAGE);
      return sendPage(
        reply,
        200,
        page('已退订推送邮件', `<p>你将不再收到${PRODUCT}的推荐推送邮件。可随时在“我的”页面重新开启。</p>`),
      );
    },
  );
};
