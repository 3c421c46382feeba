import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { embedderStates, embeddingModels } from '../schema';
import type { EmbeddingModelRow } from './embedding.repository';

export type EmbedderStateRow = typeof embedderStates.$inferSelect;
export type NewEmbedderStateRow = typeof embedderStates.$inferInsert;

/** Fitted parameters of the built-in corpus-fitted embedding models, one row per model version. */
export class EmbedderStateRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores a fit. A second save of the same model version (fits are deterministic: the same corpus
   * gives the same version) keeps the stored matrices and makes it the latest fit again, at the new
   * corpus size, so latest() is always the fit made last.
   */
  async save(state: NewEmbedderStateRow): Promise<void> {
    await this.db
      .insert(embedderStates)
      .values(state)
      .onConflictDoUpdate({
        target: embedderStates.embeddingModelId,
        set: { corpusSize: state.corpusSize, createdAt: sql`now()` },
      });
  }

  /**
   * Sets the corpus size a fit stands for: a fit made before a bulk import from the file's first works
   * is recorded at the import's expected size, then at the size the import ended with.
   */
  async setCorpusSize(embeddingModelId: number, corpusSize: number): Promise<void> {
    await this.db
      .update(embedderStates)
      .set({ corpusSize })
      .where(eq(embedderStates.embeddingModelId, embeddingModelId));
  }

  async load(embeddingModelId: number): Promise<EmbedderStateRow | undefined> {
    const [row] = await this.db
      .select()
      .from(embedderStates)
      .where(eq(embedderStates.embeddingModelId, embeddingModelId))
      .limit(1);
    return row;
  }

  /** The most recent fit of a kind with its model row, without the (large) fitted matrices. */
  async latest(
    kind: string,
  ): Promise<{ model: EmbeddingModelRow; corpusSize: number; sampleSize: number; createdAt: Date } | undefined> {
    const [row] = await this.db
      .select({
        model: embeddingModels,
        corpusSize: embedderStates.corpusSize,
        sampleSize: embedderStates.sampleSize,
        createdAt: embedderStates.createdAt,
      })
      .from(embedderStates)
      .innerJoin(embeddingModels, eq(embeddingModels.id, embedderStates.embeddingModelId))
      .where(eq(embedderStates.kind, kind))
      .orderBy(desc(embedderStates.createdAt), desc(embedderStates.embeddingModelId))
      .limit(1);
    return row;
  }
}
