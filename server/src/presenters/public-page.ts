import { escapeHtml } from '@radar/mail';
import type { FastifyReply } from 'fastify';

export const PRODUCT = '科研雷达';

/** A small Chinese page for the links that work without login (mail unsubscribe links). */
export function publicPage(title: string, bodyHtml: string): string {
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

/** Sends such a page, never cached (it answers a personal token). */
export const sendPublicPage = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
