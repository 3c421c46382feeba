import { type SQL, sql } from 'drizzle-orm';

/*
 * What a reader may be shown, decided here once for every channel that shows papers or news: /papers
 * and /news (with each research interest's slots and the section 关注的作者), keyword alert mails, the
 * digest mail, robot pushes, the Atom feed, article and news search, and any read of one item by id.
 *
 * Rules (packages/recommend/README.md has the matrix of rules x channels and its tests):
 * 1. A paper that entered the corpus only through one reader's own-works import (papers.private_to) is
 *    that reader's alone: no other reader sees it anywhere, and another reader asking for it by id gets
 *    "not found". A public source storing the same work makes it public (ContentStore).
 * 2. A record linked to a better one of the same paper (papers.duplicate_of) is never listed: one card
 *    per paper (its states live on the canonical row).
 * 3. Items the reader judged leave every recommending channel until the judgement is undone:
 *    不感兴趣 (dismissed_at) and 👎 (rating -1) always; 👍 (rating 1) too, unless the reader asks for
 *    them (the chip 含已评价: `includeRated`), so a list brings unseen items first. The reader's own works
 *    (authored_at) are never recommended to them: they wrote them.
 * 4. Search is an explicit ask: it applies rules 1 and 2 only, so a reader can still find (and undo)
 *    what they judged; the card shows the judgement.
 * Item kinds are spelled 'paper' and 'news' everywhere.
 */

export type ItemKind = 'paper' | 'news';

export interface JudgedItemOptions {
  /** 含已评价: keep the items rated 👍 (👎 and 不感兴趣 stay out). */
  includeRated?: boolean | undefined;
}

const uuid = (readerId: string) => sql`${readerId}::uuid`;

/**
 * `SELECT id` of the items of this kind the reader's judgements keep out of every recommending channel
 * (rule 3). Used as the context's excluded set (one read per request) and inside statements that select
 * their own candidates (keyword alerts, the followed authors' papers).
 */
export function judgedItemsQuery(kind: ItemKind, readerId: string, options: JudgedItemOptions = {}): SQL {
  const liked = options.includeRated ? sql`false` : sql`s.rating = 1`;
  return kind === 'paper'
    ? sql`SELECT s.paper_id AS id FROM radar.user_article_states s
          WHERE s.user_id = ${uuid(readerId)}
            AND (s.dismissed_at IS NOT NULL OR s.rating = -1 OR s.authored_at IS NOT NULL OR ${liked})`
    : sql`SELECT s.news_item_id AS id FROM radar.user_news_states s
          WHERE s.user_id = ${uuid(readerId)} AND (s.dismissed_at IS NOT NULL OR s.rating = -1 OR ${liked})`;
}

/** `item` (a radar.papers row's alias or column prefix) is not one of the reader's judged papers (rule 3). */
export function notJudgedPaper(item: SQL, readerId: string, options: JudgedItemOptions = {}): SQL {
  return sql`${item}.id NOT IN (${judgedItemsQuery('paper', readerId, options)})`;
}

/**
 * Rules 1 and 2 for a paper row `item` in a recommending channel: public and canonical. (The reader's
 * own private uploads are their own works, which rule 3 keeps out of their recommendations anyway.)
 */
export function listablePublicPaper(item: SQL): SQL {
  return sql`(${item}.private_to IS NULL AND ${item}.duplicate_of IS NULL)`;
}

/** Rule 1 for a paper row `item` read by `readerId` (search, a read by id): public, or their own upload. */
export function paperVisibleTo(item: SQL, readerId: string): SQL {
  return sql`(${item}.private_to IS NULL OR ${item}.private_to = ${uuid(readerId)})`;
}

/** Rule 1 without a reader (a signed-out visitor, a shared link): public papers only. */
export function publicPaper(item: SQL): SQL {
  return sql`${item}.private_to IS NULL`;
}
