import { brandedHtml, escapeHtml, PRODUCT_NAME } from '@radar/mail';
import type { FastifyReply } from 'fastify';

export const PRODUCT = PRODUCT_NAME;

/** A small Chinese page for the links that work without login (mail unsubscribe links). */
export function publicPage(title: string, bodyHtml: string): string {
  return brandedHtml({
    title: `${title} - ${PRODUCT}`,
    width: 480,
    page: true,
    bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
    ${bodyHtml}`,
  });
}

/** Sends such a page, never cached (it answers a personal token). */
export const sendPublicPage = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
