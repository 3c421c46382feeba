import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { parseVectorText } from '../schema/columns';
import type { EmbeddingModelRow } from './embedding.repository';
import { isForeignKeyViolation } from './pg-errors';
import { toDate } from './raw-values';
import { type ItemKind, paperVisibleTo } from './reader-eligibility';

/**
 * What the reader does that the ranking learns from (issue 13, docs/decisions.md "Learning"):
 * - liked: a paper favourited, saved, read to at least LIKED_READ_PROGRESS percent, rated 👍 or written by
 *   the reader (authored_at, seeded from their own works), and a news item rated 👍 (issue 23), neither
 *   dismissed nor rated 👎;
 * - dismissed: a paper or news item marked 'not interested' (user_article_states / user_news_states
 *   .dismissed_at) or rated 👎 (.rating = -1); items marked 'not interested' are never recommended
 *   again, whatever the learned profile says (a 👎 item may be: it only teaches the ranking).
 * Signals count from the user's last reset (users.learning_reset_at) on; dismissals stay in force after
 * a reset (each has its own undo). The learned vector itself is written by the worker (profile-learning).
 */

const LIKED_READ_PROGRESS = 50;
/** The newest signals of each kind a learned profile is made from; older ones have had their say. */
const MAX_SIGNALS_PER_KIND = 200;
/** The newest papers the classifier's random negatives are drawn from (recommendations are recent papers). */
const RANDOM_NEGATIVE_POOL = 5000;

/** A signal for the reader's classifier: the item's vector, 1 (liked) or 0 (dismissed), its age. */
export interface ClassifierSignal {
  vector: number[];
  label: 0 | 1;
  ageDays: number;
}

/** Vectors of the asked model of the signals (items without one yet are left out). */
export interface LearningSignals {
  liked: number[][];
  /** Dismissed papers and news items. */
  dismissed: number[][];
}

export interface LearningState {
  likedCount: number;
  dismissedCount: number;
  learnedModelId: number | null;
  learnedAt: Date | null;
  resetAt: Date | null;
  /**
   * learning_reset_at exactly as stored (microseconds; a Date keeps milliseconds), to tell whether a
   * reset happened between reading the signals and saving the profile made from them.
   */
  resetMark: string | null;
  /**
   * A change to the user's paper or news states (since the reset) is newer than the learned profile, or
   * the research summary was re-embedded since: the profile is behind. Compared in SQL, at full precision.
   */
  changedSinceLearned: boolean;
  /** The database's clock when read (text, full precision): the learned profile made from it is stamped so. */
  readMark: string;
}

/** Where each kind of item keeps its per-user state (constant identifiers only). */
const DISMISSABLE = {
  paper: { states: sql.raw('radar.user_article_states'), column: sql.raw('paper_id'), items: sql.raw('radar.papers') },
  news: {
    states: sql.raw('radar.user_news_states'),
    column: sql.raw('news_item_id'),
    items: sql.raw('radar.news_items'),
  },
} as const;

/** After the reset, if any: the signal predicate on a row's timestamp column. */
const sinceReset = (column: string) => sql.raw(`(u.learning_reset_at IS NULL OR ${column} > u.learning_reset_at)`);

/** Another reader's private upload is not found (reader-eligibility.ts); every news item is public. */
const visibleItem = (target: (typeof DISMISSABLE)[keyof typeof DISMISSABLE], userId: string) =>
  target === DISMISSABLE.paper ? paperVisibleTo(sql`i`, userId) : sql`true`;

/** A liked paper: state row `s` (user_article_states) of user `u`, since the reset, not dismissed. */
const LIKED = sql`s.dismissed_at IS NULL AND s.rating IS DISTINCT FROM -1
  AND (s.is_favorited OR s.is_saved OR s.authored_at IS NOT NULL
    OR s.read_progress >= ${sql.raw(String(LIKED_READ_PROGRESS))} OR s.rating = 1)
  AND ${sinceReset('s.updated_at')}`;

/** A liked news item: state row `s` (user_news_states) of user `u`, rated 👍 since the reset, not dismissed. */
const LIKED_NEWS = sql`s.dismissed_at IS NULL AND s.rating = 1 AND ${sinceReset('s.rated_at')}`;

/** A dismissed item: state row `s` (papers or news) of user `u`, dismissed or rated 👎 since the reset. */
const DISMISSED = sql`((s.dismissed_at IS NOT NULL AND ${sinceReset('s.dismissed_at')})
  OR (s.rating = -1 AND ${sinceReset('s.rated_at')}))`;

/** When a signal of state row `s` was given: its rating's time, else its last change. */
const SIGNAL_AT = sql`coalesce(s.rated_at, s.dismissed_at, s.updated_at)`;

/**
 * The vectors of `modelId` (null for another model) of the reader's newest MAX_SIGNALS_PER_KIND papers
 * and newest MAX_SIGNALS_PER_KIND news items of a kind of signal: each side's condition on its state
 * row `s` and item (`p`, `n`), and its order.
 */
const signalVectorsQuery = (userId: string, modelId: number, where: { paper: SQL; news: SQL }) =>
  sql`(SELECT CASE WHEN p.embedding_model_id = ${modelId} THEN p.embedding::text END AS vector
        FROM radar.user_article_states s
        JOIN radar.users u ON u.id = s.user_id
        JOIN radar.papers p ON p.id = s.paper_id
        WHERE s.user_id = ${userId}::uuid AND ${where.paper}
        LIMIT ${MAX_SIGNALS_PER_KIND})
      UNION ALL
      (SELECT CASE WHEN n.embedding_model_id = ${modelId} THEN n.embedding::text END AS vector
        FROM radar.user_news_states s
        JOIN radar.users u ON u.id = s.user_id
        JOIN radar.news_items n ON n.id = s.news_item_id
        WHERE s.user_id = ${userId}::uuid AND ${where.news}
        LIMIT ${MAX_SIGNALS_PER_KIND})`;

const vectorsOf = (rows: { vector: string | null }[]) =>
  rows.flatMap((row) => (row.vector === null ? [] : [parseVectorText(row.vector)]));

/** A row of learningStateQuery(), as node-postgres (or row_to_json) gives it. */
export type LearningStateRow = {
  liked: number;
  dismissed: number;
  learned_embedding_model_id: number | null;
  learned_at: string | Date | null;
  learning_reset_at: string | Date | null;
  reset_mark: string | null;
  read_mark: string;
  changed_since_learned: boolean;
};

/** The statement of LearningRepository.state(), also read inside a recommendation's first query. */
export const learningStateQuery = (userId: string) =>
  sql`SELECT u.learned_embedding_model_id, u.learned_at, u.learning_reset_at,
        u.learning_reset_at::text AS reset_mark,
        clock_timestamp()::text AS read_mark,
        (u.profile_embedded_at > u.learned_at
          OR EXISTS (SELECT 1 FROM radar.user_article_states s WHERE s.user_id = u.id
            AND ${sinceReset('s.updated_at')} AND (u.learned_at IS NULL OR s.updated_at > u.learned_at))
          OR EXISTS (SELECT 1 FROM radar.user_news_states s WHERE s.user_id = u.id
            AND ${sinceReset('s.updated_at')} AND (u.learned_at IS NULL OR s.updated_at > u.learned_at))
        ) IS TRUE AS changed_since_learned,
        (SELECT count(*)::int FROM radar.user_article_states s WHERE s.user_id = u.id AND ${LIKED})
        + (SELECT count(*)::int FROM radar.user_news_states s WHERE s.user_id = u.id AND ${LIKED_NEWS}) AS liked,
        (SELECT count(*)::int FROM radar.user_article_states s WHERE s.user_id = u.id AND ${DISMISSED})
        + (SELECT count(*)::int FROM radar.user_news_states s WHERE s.user_id = u.id AND ${DISMISSED}) AS dismissed
      FROM radar.users u WHERE u.id = ${userId}::uuid`;

export function toLearningState(row: LearningStateRow): LearningState {
  return {
    likedCount: Number(row.liked),
    dismissedCount: Number(row.dismissed),
    learnedModelId: row.learned_embedding_model_id === null ? null : Number(row.learned_embedding_model_id),
    learnedAt: toDate(row.learned_at),
    resetAt: toDate(row.learning_reset_at),
    resetMark: row.reset_mark === null ? null : String(row.reset_mark),
    changedSinceLearned: Boolean(row.changed_since_learned),
    readMark: String(row.read_mark),
  };
}

/**
 * The closest liked paper of each row of `candidates` (a SQL list of ids), as `candidate, id, title,
 * distance` rows: see LearningRepository.closestLiked().
 */
export const closestLikedQuery = (userId: string, modelId: number, candidateIds: readonly number[]) =>
  sql`WITH liked AS MATERIALIZED (
        SELECT p.id, p.title, p.embedding,
          -- The signal that made it liked, strongest first, so the reason names it truthfully.
          CASE WHEN s.is_favorited THEN 'favorite' WHEN s.is_saved THEN 'saved' WHEN s.rating = 1 THEN 'rated'
               WHEN s.authored_at IS NOT NULL THEN 'authored' ELSE 'read' END AS signal
        FROM radar.user_article_states s
        JOIN radar.users u ON u.id = s.user_id
        JOIN radar.papers p ON p.id = s.paper_id
        WHERE s.user_id = ${userId}::uuid AND p.embedding_model_id = ${modelId} AND ${LIKED}
        ORDER BY s.updated_at DESC LIMIT ${MAX_SIGNALS_PER_KIND}
      )
      SELECT c.id AS candidate, best.id, best.title, best.signal, best.distance
      FROM radar.papers c
      CROSS JOIN LATERAL (
        SELECT l.id, l.title, l.signal, l.embedding <=> c.embedding AS distance FROM liked l
        WHERE l.id <> c.id ORDER BY 3 LIMIT 1
      ) best
      WHERE c.id = ANY(string_to_array(${candidateIds.join(',')}, ',')::bigint[]) AND c.embedding_model_id = ${modelId}`;

/** closestLikedQuery()'s rows by candidate. */
export const toClosestLiked = (
  rows: readonly { candidate: unknown; id: unknown; title: unknown; signal?: unknown; distance: unknown }[],
): Map<number, ClosestLiked> =>
  new Map(
    rows.map((row) => [
      Number(row.candidate),
      {
        id: Number(row.id),
        title: String(row.title),
        signal: LIKED_SIGNALS.find((signal) => signal === row.signal) ?? 'read',
        similarity: 1 - Number(row.distance),
      },
    ]),
  );

/** What made a paper liked, strongest first: 收藏, 稍后读, 👍, the reader's own work, read half of it. */
const LIKED_SIGNALS = ['favorite', 'saved', 'rated', 'authored', 'read'] as const;
export type LikedSignal = (typeof LIKED_SIGNALS)[number];

/** The liked paper closest to a candidate, and the signal that made it liked. */
export interface ClosestLiked {
  id: number;
  title: string;
  signal: LikedSignal;
  similarity: number;
}

export class LearningRepository {
  constructor(private readonly db: Database) {}

  /**
   * Marks a paper 'not interested' (true) or undoes it (false); the new state, or undefined when no
   * paper has this id. Undo of a paper never dismissed is a no-op that still answers false.
   */
  async setPaperDismissed(userId: string, paperId: number, dismissed: boolean): Promise<boolean | undefined> {
    return this.setDismissed(DISMISSABLE.paper, userId, paperId, dismissed);
  }

  /** As setPaperDismissed, for a news item. */
  async setNewsDismissed(userId: string, newsItemId: number, dismissed: boolean): Promise<boolean | undefined> {
    return this.setDismissed(DISMISSABLE.news, userId, newsItemId, dismissed);
  }

  /**
   * One statement (INSERT ... SELECT ... ON CONFLICT): an id that names no item writes nothing, and an
   * item deleted meanwhile by another transaction (a foreign-key violation) counts as not found.
   */
  private async setDismissed(
    target: (typeof DISMISSABLE)[keyof typeof DISMISSABLE],
    userId: string,
    itemId: number,
    dismissed: boolean,
  ): Promise<boolean | undefined> {
    const { states, column, items } = target;
    try {
      const result = await this.db.execute<{ dismissed: boolean }>(
        sql`INSERT INTO ${states} (user_id, ${column}, dismissed_at)
            SELECT ${userId}::uuid, i.id, CASE WHEN ${dismissed} THEN now() END FROM ${items} i
            WHERE i.id = ${itemId} AND ${visibleItem(target, userId)}
            ON CONFLICT (user_id, ${column}) DO UPDATE
              SET dismissed_at = CASE WHEN ${dismissed} THEN coalesce(${states}.dismissed_at, now()) END,
                  updated_at = now()
            RETURNING dismissed_at IS NOT NULL AS dismissed`,
      );
      const row = result.rows[0];
      return row === undefined ? undefined : Boolean(row.dismissed);
    } catch (error) {
      if (isForeignKeyViolation(error)) return undefined;
      throw error;
    }
  }

  /**
   * Rates a paper 👍 (1) or 👎 (-1), or removes the rating (0); the new rating (null: none), or undefined
   * when no paper has this id. Setting the same value again keeps its time.
   */
  async setPaperRating(userId: string, paperId: number, value: 1 | -1 | 0): Promise<1 | -1 | null | undefined> {
    return this.setRating(DISMISSABLE.paper, userId, paperId, value);
  }

  /** As setPaperRating, for a news item. */
  async setNewsRating(userId: string, newsItemId: number, value: 1 | -1 | 0): Promise<1 | -1 | null | undefined> {
    return this.setRating(DISMISSABLE.news, userId, newsItemId, value);
  }

  private async setRating(
    target: (typeof DISMISSABLE)[keyof typeof DISMISSABLE],
    userId: string,
    itemId: number,
    value: 1 | -1 | 0,
  ): Promise<1 | -1 | null | undefined> {
    const { states, column, items } = target;
    const rating = value === 0 ? null : value;
    try {
      const result = await this.db.execute<{ rating: number | null }>(
        sql`INSERT INTO ${states} (user_id, ${column}, rating, rated_at)
            SELECT ${userId}::uuid, i.id, ${rating}::smallint, CASE WHEN ${rating}::smallint IS NOT NULL THEN now() END
            FROM ${items} i WHERE i.id = ${itemId} AND ${visibleItem(target, userId)}
            ON CONFLICT (user_id, ${column}) DO UPDATE
              SET rated_at = CASE WHEN excluded.rating IS NULL THEN NULL
                    WHEN ${states}.rating IS NOT DISTINCT FROM excluded.rating THEN ${states}.rated_at ELSE now() END,
                  rating = excluded.rating,
                  updated_at = now()
            RETURNING rating`,
      );
      const row = result.rows[0];
      if (row === undefined) return undefined;
      return row.rating === null ? null : Number(row.rating) === 1 ? 1 : -1;
    } catch (error) {
      if (isForeignKeyViolation(error)) return undefined;
      throw error;
    }
  }

  /**
   * The reader's rated papers with a vector of `model`, since the reset: each rating and the paper's
   * cosine similarity to `profileVector` (the research summary's, as recommendations show it).
   */
  async ratedSimilarities(
    userId: string,
    model: Pick<EmbeddingModelRow, 'id' | 'dimension'>,
    profileVector: readonly number[],
  ): Promise<{ value: 1 | -1; similarity: number }[]> {
    const dimension = sql.raw(String(Math.trunc(model.dimension)));
    const result = await this.db.execute<{ rating: number; similarity: number }>(
      sql`SELECT s.rating, 1 - (p.embedding::vector(${dimension}) <=> ${`[${profileVector.join(',')}]`}::vector(${dimension})) AS similarity
          FROM radar.user_article_states s
          JOIN radar.users u ON u.id = s.user_id
          JOIN radar.papers p ON p.id = s.paper_id
          WHERE s.user_id = ${userId}::uuid AND s.rating IS NOT NULL AND ${sinceReset('s.rated_at')}
            AND p.embedding_model_id = ${model.id}`,
    );
    return result.rows.map((row) => ({ value: Number(row.rating) === 1 ? 1 : -1, similarity: Number(row.similarity) }));
  }

  /** Counts of signals since the reset and the learned profile's bookkeeping; undefined for an unknown user. */
  async state(userId: string): Promise<LearningState | undefined> {
    const result = await this.db.execute<LearningStateRow>(learningStateQuery(userId));
    const row = result.rows[0];
    return row ? toLearningState(row) : undefined;
  }

  /**
   * The vectors of `modelId` of the newest MAX_SIGNALS_PER_KIND liked papers and of the newest dismissed
   * papers and news items, since the reset.
   */
  async signals(userId: string, modelId: number): Promise<LearningSignals> {
    const liked = await this.db.execute<{ vector: string | null }>(
      signalVectorsQuery(userId, modelId, {
        paper: sql`${LIKED} ORDER BY s.updated_at DESC, p.id DESC`,
        news: sql`${LIKED_NEWS} ORDER BY s.rated_at DESC, n.id DESC`,
      }),
    );
    const dismissed = await this.db.execute<{ vector: string | null }>(
      signalVectorsQuery(userId, modelId, {
        paper: sql`${DISMISSED} ORDER BY ${SIGNAL_AT} DESC`,
        news: sql`${DISMISSED} ORDER BY ${SIGNAL_AT} DESC`,
      }),
    );
    return { liked: vectorsOf(liked.rows), dismissed: vectorsOf(dismissed.rows) };
  }

  /**
   * The vectors of `modelId` of the reader's interests besides the research summary (radar.reader_interests):
   * each signal teaches the interest it is nearest to (signalsOfSummary in @radar/ai).
   */
  async otherInterestVectors(userId: string, modelId: number): Promise<number[][]> {
    const result = await this.db.execute<{ vector: string | null }>(
      sql`SELECT embedding::text AS vector FROM radar.reader_interests
          WHERE user_id = ${userId}::uuid AND kind <> 'summary' AND embedding_model_id = ${modelId}
          ORDER BY id`,
    );
    return vectorsOf(result.rows);
  }

  /**
   * Stores the learned profile (null: none, the summary alone is used), stamped with the time the signals
   * were read (so a change made while it was computed still looks newer). A reset made meanwhile wins:
   * then nothing is written.
   */
  async saveLearned(
    userId: string,
    learned: { modelId: number; vector: number[] } | null,
    snapshot: Pick<LearningState, 'resetMark' | 'readMark'>,
  ): Promise<boolean> {
    const { resetMark } = snapshot;
    const learnedAt = snapshot.readMark;
    if (learned && !learned.vector.every(Number.isFinite)) throw new RangeError('learned vector is not finite');
    const guard =
      resetMark === null ? sql`learning_reset_at IS NULL` : sql`learning_reset_at = ${resetMark}::timestamptz`;
    const result = learned
      ? await this.db.execute(
          sql`UPDATE radar.users SET learned_embedding = ${`[${learned.vector.join(',')}]`}::vector,
                learned_embedding_model_id = ${learned.modelId}, learned_at = ${learnedAt}::timestamptz
              WHERE id = ${userId}::uuid AND ${guard}`,
        )
      : await this.db.execute(
          sql`UPDATE radar.users SET learned_embedding = NULL, learned_embedding_model_id = NULL, learned_at = ${learnedAt}::timestamptz
              WHERE id = ${userId}::uuid AND ${guard}`,
        );
    return (result.rowCount ?? 0) > 0;
  }

  /** The learned profile of this model, if there is one. */
  async learnedVector(userId: string, model: Pick<EmbeddingModelRow, 'id' | 'dimension'>): Promise<number[] | null> {
    const result = await this.db.execute<{ vector: string | null }>(
      sql`SELECT learned_embedding::text AS vector FROM radar.users
          WHERE id = ${userId}::uuid AND learned_embedding_model_id = ${model.id} AND learned_embedding IS NOT NULL`,
    );
    const [vector] = vectorsOf(result.rows);
    return vector?.length === model.dimension ? vector : null;
  }

  /** Back to the summary alone: signals so far stop counting, the learned profile and classifiers are dropped. */
  async reset(userId: string): Promise<void> {
    await this.db.execute(
      sql`WITH dropped AS (DELETE FROM radar.reader_classifiers WHERE user_id = ${userId}::uuid)
          UPDATE radar.users SET learning_reset_at = now(), learned_embedding = NULL, learned_embedding_model_id = NULL,
            learned_at = NULL
          WHERE id = ${userId}::uuid`,
    );
  }

  /**
   * The classifier's training signals of `modelId` (issue 23): the newest MAX_SIGNALS_PER_KIND liked and
   * dismissed papers and news items since the reset, with their age in days (a rating's time, else the
   * state's last change); items without a vector of this model are left out.
   */
  async classifierSignals(userId: string, modelId: number): Promise<ClassifierSignal[]> {
    const limit = sql.raw(String(MAX_SIGNALS_PER_KIND));
    // The newest signals of one kind of item with one label: state row `s` of user `u`, item `i`.
    const signals = (kind: ItemKind, label: 0 | 1, condition: SQL) => {
      const [states, table, key] =
        kind === 'paper'
          ? ['radar.user_article_states', 'radar.papers', 'paper_id']
          : ['radar.user_news_states', 'radar.news_items', 'news_item_id'];
      return sql`(SELECT i.embedding::text AS vector, ${sql.raw(String(label))} AS label,
              extract(epoch FROM now() - ${SIGNAL_AT}) / 86400 AS age_days
            FROM ${sql.raw(states)} s JOIN radar.users u ON u.id = s.user_id JOIN ${sql.raw(table)} i ON i.id = s.${sql.raw(key)}
            WHERE s.user_id = ${userId}::uuid AND i.embedding_model_id = ${modelId} AND ${condition}
            ORDER BY ${SIGNAL_AT} DESC LIMIT ${limit})`;
    };
    const result = await this.db.execute<{ vector: string; label: number; age_days: number }>(
      sql.join(
        [
          signals('paper', 1, LIKED),
          signals('news', 1, LIKED_NEWS),
          signals('paper', 0, DISMISSED),
          signals('news', 0, DISMISSED),
        ],
        sql` UNION ALL `,
      ),
    );
    return result.rows.map((row) => ({
      vector: parseVectorText(row.vector),
      label: Number(row.label) === 1 ? 1 : 0,
      ageDays: Math.max(0, Number(row.age_days)),
    }));
  }

  /**
   * `count` papers with a vector of `modelId` the reader has no state for, among the newest
   * RANDOM_NEGATIVE_POOL: the classifier's extra negatives. The order is a hash of the paper and the
   * reader, so it is random across papers yet the same on every run (the job stays idempotent).
   */
  async unratedSample(userId: string, modelId: number, count: number): Promise<number[][]> {
    if (count <= 0) return [];
    const result = await this.db.execute<{ vector: string }>(
      sql`WITH recent AS (
            SELECT p.id, p.embedding FROM radar.papers p
            WHERE p.embedding_model_id = ${modelId} AND p.embedding IS NOT NULL
            ORDER BY p.id DESC LIMIT ${RANDOM_NEGATIVE_POOL}
          )
          SELECT r.embedding::text AS vector FROM recent r
          WHERE NOT EXISTS (SELECT 1 FROM radar.user_article_states s WHERE s.user_id = ${userId}::uuid AND s.paper_id = r.id)
          ORDER BY md5(r.id::text || ${userId}) LIMIT ${Math.trunc(count)}`,
    );
    return vectorsOf(result.rows);
  }

  /**
   * Stores the reader's classifier of a model (null: drops the reader's classifiers, too few signals),
   * under the same guard as saveLearned: a reset made meanwhile wins.
   */
  async saveClassifier(
    userId: string,
    classifier: { modelId: number; weights: number[]; bias: number; signalCount: number } | null,
    snapshot: Pick<LearningState, 'resetMark' | 'readMark'>,
  ): Promise<boolean> {
    const guard =
      snapshot.resetMark === null
        ? sql`u.learning_reset_at IS NULL`
        : sql`u.learning_reset_at = ${snapshot.resetMark}::timestamptz`;
    if (!classifier) {
      await this.db.execute(
        sql`DELETE FROM radar.reader_classifiers c USING radar.users u
            WHERE c.user_id = ${userId}::uuid AND u.id = c.user_id AND ${guard}`,
      );
      return true;
    }
    if (!classifier.weights.every(Number.isFinite) || !Number.isFinite(classifier.bias))
      throw new RangeError('classifier is not finite');
    const result = await this.db.execute(
      sql`INSERT INTO radar.reader_classifiers (user_id, embedding_model_id, weights, bias, signal_count, fitted_at)
          SELECT u.id, ${classifier.modelId}, ${`[${classifier.weights.join(',')}]`}::vector, ${classifier.bias},
            ${classifier.signalCount}, ${snapshot.readMark}::timestamptz
          FROM radar.users u WHERE u.id = ${userId}::uuid AND ${guard}
          ON CONFLICT (user_id, embedding_model_id) DO UPDATE
            SET weights = excluded.weights, bias = excluded.bias, signal_count = excluded.signal_count,
              fitted_at = excluded.fitted_at`,
    );
    return (result.rowCount ?? 0) > 0;
  }

  /**
   * For each candidate paper, the liked paper closest to it (cosine, vectors of `modelId`), among the
   * newest MAX_SIGNALS_PER_KIND liked since the reset; candidates without a vector are left out.
   */
  async closestLiked(
    userId: string,
    modelId: number,
    candidateIds: readonly number[],
  ): Promise<Map<number, ClosestLiked>> {
    if (candidateIds.length === 0) return new Map();
    const result = await this.db.execute<{ candidate: unknown; id: unknown; title: unknown; distance: unknown }>(
      closestLikedQuery(userId, modelId, candidateIds),
    );
    return toClosestLiked(result.rows);
  }
}
