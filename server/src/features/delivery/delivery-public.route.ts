import { escapeHtml } from '@radar/mail';
import { API_PATHS, deliveryFeedParamsSchema, deliveryUnsubscribeQuerySchema } from '@radar/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PRODUCT, publicPage, sendPublicPage } from '../../presenters/public-page';
import type { DeliveryService } from './delivery.service';
import type { FeedDocument } from './feed-cache';

/** Per client address: tokens carry 256 bits, so this only keeps scanning cheap (feed readers poll far less). */
const PUBLIC_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

const INVALID_PAGE = publicPage('退订链接无效', '<p>这个退订链接无效或不完整，请从推送邮件中重新打开退订链接。</p>');

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
      // Per address (scanning), and per reader whose feed it is (the `feed` quota, whatever the address).
      config: { rateLimit: PUBLIC_RATE_LIMIT, userQuota: 'feed' },
      // Before the quota is counted (preValidation): whose budget this poll spends.
      onRequest: async (request) => {
        const { token } = request.params as { token?: unknown };
        request.quotaReader = typeof token === 'string' ? await delivery.feedReader(token) : undefined;
      },
      schema: {
        tags: ['delivery'],
        summary:
          "A reader's recommendations as Atom 1.0, by the secret address from /my (no login); 404 otherwise. Rebuilt at most every few minutes; ETag / Last-Modified answer If-None-Match / If-Modified-Since with 304",
        params: deliveryFeedParamsSchema,
      },
    },
    async (request, reply) => {
      const feed = request.quotaReader ? await delivery.feed(request.params.token, request.quotaReader) : undefined;
      if (!feed) {
        return reply
          .status(404)
          .header('cache-control', 'no-store')
          .send({ code: 'NOT_FOUND', message: '订阅地址无效或已重新生成，请到“我的”页面复制新的地址' });
      }
      reply
        .header('cache-control', 'private, max-age=900')
        .header('x-robots-tag', 'noindex')
        .header('etag', feed.etag)
        .header('last-modified', feed.lastModified.toUTCString());
      if (isNotModified(request.headers, feed)) return reply.status(304).send();
      return reply.type('application/atom+xml; charset=utf-8').send(feed.xml);
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
      if (!token || !delivery.isUnsubscribeTokenValid(token)) return sendPublicPage(reply, 400, INVALID_PAGE);
      const action = `${API_PATHS.deliveryUnsubscribe}?token=${encodeURIComponent(token)}`;
      return sendPublicPage(
        reply,
        200,
        publicPage(
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
      if (!(await delivery.unsubscribe(request.query.token))) return sendPublicPage(reply, 400, INVALID_PAGE);
      return sendPublicPage(
        reply,
        200,
        publicPage('已退订推送邮件', `<p>你将不再收到${PRODUCT}的推荐推送邮件。可随时在“我的”页面重新开启。</p>`),
      );
    },
  );
};

/**
 * A conditional GET the reader's copy satisfies (RFC 9110): If-None-Match when sent (a list of
 * tags, or *; weak comparison), else If-Modified-Since at or after Last-Modified.
 */
function isNotModified(
  headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined },
  feed: FeedDocument,
): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const tags = noneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(feed.etag);
  }
  const since = headers['if-modified-since'] ? Date.parse(headers['if-modified-since']) : Number.NaN;
  return Number.isFinite(since) && feed.lastModified.getTime() <= since;
}
