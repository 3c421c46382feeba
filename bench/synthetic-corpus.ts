import type { DatabaseHandle } from '../packages/db/src';

/*
 * The synthetic corpus of the scale benchmarks (bench:recommend, bench:delivery): papers whose vectors
 * fall in gaussian clusters on the unit sphere, publication dates spread over the last two years, tiers
 * 1-4 and unknown (NULL) in equal shares, all of one embedding model. Deterministic: the same seed and
 * sizes give the same corpus.
 */

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const normalize = (vector: number[]) => {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
};

export const vectorLiteral = (vector: number[]) => `[${vector.map((value) => value.toFixed(6)).join(',')}]`;

export interface SyntheticSpace {
  readonly dim: number;
  readonly clusters: number;
  /** Uniform in [0, 1), from the space's seeded generator. */
  random(): number;
  /** A random cluster's index. */
  cluster(): number;
  /** A point of the cluster (a random one when left out): its center plus noise of norm ~1 (cosine ~0.7). */
  clusteredVector(cluster?: number): number[];
}

export function syntheticSpace(options: { seed: number; dim: number; clusters: number }): SyntheticSpace {
  const { dim, clusters } = options;
  const random = mulberry32(options.seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const centers = Array.from({ length: clusters }, () => normalize(Array.from({ length: dim }, gaussian)));
  const cluster = () => Math.floor(random() * clusters);
  return {
    dim,
    clusters,
    random,
    cluster,
    clusteredVector(index = cluster()) {
      const center = centers[index] ?? [];
      const sigma = 1 / Math.sqrt(dim);
      return normalize(center.map((value) => value + sigma * gaussian()));
    },
  };
}

const DAYS = 730;
const TIERS = [1, 2, 3, 4, null] as const;
/** Rows per INSERT: one round trip each. */
export const INSERT_BATCH = 1_000;

/**
 * Inserts `count` papers of the model with multi-row inserts (the HNSW index is best built afterwards:
 * inserting into a live one is many times slower than one build). `title` names the i-th paper of a
 * cluster (its words are what keyword alerts match); `progress` is told the papers inserted so far.
 */
export async function insertSyntheticPapers(
  pool: DatabaseHandle['pool'],
  space: SyntheticSpace,
  options: {
    count: number;
    modelId: number;
    title?: (index: number, cluster: number) => string;
    progress?: (inserted: number) => void;
  },
): Promise<void> {
  const today = Date.now();
  const title = options.title ?? ((index: number) => `Synthetic paper ${index}`);
  for (let offset = 0; offset < options.count; offset += INSERT_BATCH) {
    const size = Math.min(INSERT_BATCH, options.count - offset);
    const titles: string[] = [];
    const dates: string[] = [];
    const tiers: (number | null)[] = [];
    const vectors: string[] = [];
    for (let i = 0; i < size; i++) {
      const cluster = space.cluster();
      titles.push(title(offset + i, cluster));
      dates.push(new Date(today - Math.floor(space.random() * DAYS) * 86_400_000).toISOString().slice(0, 10));
      tiers.push(TIERS[Math.floor(space.random() * TIERS.length)] ?? null);
      vectors.push(vectorLiteral(space.clusteredVector(cluster)));
    }
    await pool.query(
      `INSERT INTO radar.papers (title, published_at, jcr_tier, embedding, embedding_model_id, source)
       SELECT t, d, r, v::vector, $5, 'bench' FROM unnest($1::text[], $2::date[], $3::smallint[], $4::text[]) AS u(t, d, r, v)`,
      [titles, dates, tiers, vectors, options.modelId],
    );
    options.progress?.(offset + size);
  }
}
