import { seededRandom } from '@radar/shared';
import type { SparseVector } from './tfidf';

/**
 * Randomized truncated SVD (Halko, Martinsson and Tropp 2011, algorithm 4.4 with power iterations)
 * of a sparse documents x terms matrix, in plain TypeScript. It returns the top right singular vectors:
 * projecting a tf-idf vector onto them is latent semantic analysis (LSA). Dense matrices are stored
 * column-major (column c of an r-row matrix at [c * r, (c + 1) * r)).
 */

export interface TruncatedSvdOptions {
  rank: number;
  /** Extra random directions; improves accuracy of the top `rank`. */
  oversample?: number;
  powerIterations?: number;
  seed?: number;
}

export interface TruncatedSvd {
  /** terms x rank, column-major: component c is [c * terms, (c + 1) * terms). */
  components: Float64Array;
  singularValues: Float64Array;
  rank: number;
  terms: number;
}

function gaussian(random: () => number): number {
  const u = Math.max(random(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * A fit takes seconds to a minute on a large corpus, and in embedded mode the HTTP server shares the
 * process: the loops call this often, and it gives the event loop a turn every ~20 ms.
 */
export function createYielder(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < 20) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}

export type Yielder = () => Promise<void>;

/** rows x cols product A * M, with A sparse (rows) and M dense terms x cols. */
async function multiply(
  rows: SparseVector[],
  m: Float64Array,
  terms: number,
  cols: number,
  pause: Yielder,
): Promise<Float64Array> {
  const n = rows.length;
  const out = new Float64Array(n * cols);
  for (let c = 0; c < cols; c++) {
    await pause();
    const offset = c * terms;
    for (let i = 0; i < n; i++) {
      const row = rows[i] as SparseVector;
      let sum = 0;
      for (let k = 0; k < row.indices.length; k++) {
        sum += (row.values[k] as number) * (m[offset + (row.indices[k] as number)] as number);
      }
      out[c * n + i] = sum;
    }
  }
  return out;
}

/** terms x cols product A^T * Y, with Y dense rows x cols. */
async function multiplyTransposed(
  rows: SparseVector[],
  y: Float64Array,
  terms: number,
  cols: number,
  pause: Yielder,
): Promise<Float64Array> {
  const n = rows.length;
  const out = new Float64Array(terms * cols);
  for (let c = 0; c < cols; c++) {
    await pause();
    const offset = c * terms;
    for (let i = 0; i < n; i++) {
      const weight = y[c * n + i] as number;
      if (weight === 0) continue;
      const row = rows[i] as SparseVector;
      for (let k = 0; k < row.indices.length; k++) {
        const index = offset + (row.indices[k] as number);
        out[index] = (out[index] as number) + weight * (row.values[k] as number);
      }
    }
  }
  return out;
}

/** Orthonormalises the columns in place (modified Gram-Schmidt, applied twice for stability). */
async function orthonormalize(matrix: Float64Array, rowCount: number, cols: number, pause: Yielder): Promise<void> {
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < cols; c++) {
      await pause();
      const col = matrix.subarray(c * rowCount, (c + 1) * rowCount);
      for (let p = 0; p < c; p++) {
        const prev = matrix.subarray(p * rowCount, (p + 1) * rowCount);
        let dot = 0;
        for (let i = 0; i < rowCount; i++) dot += (col[i] as number) * (prev[i] as number);
        for (let i = 0; i < rowCount; i++) col[i] = (col[i] as number) - dot * (prev[i] as number);
      }
      let norm = 0;
      for (let i = 0; i < rowCount; i++) norm += (col[i] as number) ** 2;
      norm = Math.sqrt(norm);
      if (norm < 1e-12) col.fill(0);
      else for (let i = 0; i < rowCount; i++) col[i] = (col[i] as number) / norm;
    }
  }
}

/**
 * Eigen-decomposition of a small symmetric matrix (size x size, column-major) by cyclic Jacobi
 * rotations. Returns eigenvalues descending and the matching eigenvectors as columns.
 */
export async function symmetricEigen(
  input: Float64Array,
  size: number,
  pause: Yielder = async () => {},
): Promise<{ values: Float64Array; vectors: Float64Array }> {
  const a = Float64Array.from(input);
  const v = new Float64Array(size * size);
  for (let i = 0; i < size; i++) v[i * size + i] = 1;
  const at = (r: number, c: number) => a[c * size + r] as number;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < size; p++) for (let q = p + 1; q < size; q++) off += at(p, q) ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < size; p++) {
      await pause();
      for (let q = p + 1; q < size; q++) {
        const apq = at(p, q);
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (at(q, q) - at(p, p)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const cos = 1 / Math.sqrt(t * t + 1);
        const sin = t * cos;
        for (let k = 0; k < size; k++) {
          const akp = at(k, p);
          const akq = at(k, q);
          a[p * size + k] = cos * akp - sin * akq;
          a[q * size + k] = sin * akp + cos * akq;
        }
        for (let k = 0; k < size; k++) {
          const apk = at(p, k);
          const aqk = at(q, k);
          a[k * size + p] = cos * apk - sin * aqk;
          a[k * size + q] = sin * apk + cos * aqk;
        }
        for (let k = 0; k < size; k++) {
          const vkp = v[p * size + k] as number;
          const vkq = v[q * size + k] as number;
          v[p * size + k] = cos * vkp - sin * vkq;
          v[q * size + k] = sin * vkp + cos * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: size }, (_, i) => i).sort((x, y) => at(y, y) - at(x, x));
  const values = Float64Array.from(order, (i) => at(i, i));
  const vectors = new Float64Array(size * size);
  for (const [to, from] of order.entries()) vectors.set(v.subarray(from * size, (from + 1) * size), to * size);
  return { values, vectors };
}

export async function truncatedSvd(
  rows: SparseVector[],
  terms: number,
  options: TruncatedSvdOptions,
): Promise<TruncatedSvd> {
  const pause = createYielder();
  const n = rows.length;
  const rank = Math.max(1, Math.min(options.rank, n, terms));
  const width = Math.min(rank + (options.oversample ?? 10), n, terms);
  const random = seededRandom(options.seed ?? 42);

  const omega = new Float64Array(terms * width);
  for (let c = 0; c < width; c++) {
    await pause();
    for (let i = c * terms; i < (c + 1) * terms; i++) omega[i] = gaussian(random);
  }
  let q = await multiply(rows, omega, terms, width, pause);
  await orthonormalize(q, n, width, pause);
  for (let iteration = 0; iteration < (options.powerIterations ?? 4); iteration++) {
    const z = await multiplyTransposed(rows, q, terms, width, pause);
    await orthonormalize(z, terms, width, pause);
    q = await multiply(rows, z, terms, width, pause);
    await orthonormalize(q, n, width, pause);
  }
  // B = Q^T A, kept transposed (terms x width); the SVD of B comes from the eigen-decomposition of B B^T.
  const bt = await multiplyTransposed(rows, q, terms, width, pause);
  const gram = new Float64Array(width * width);
  for (let r = 0; r < width; r++) {
    await pause();
    const colR = bt.subarray(r * terms, (r + 1) * terms);
    for (let c = r; c < width; c++) {
      const colC = bt.subarray(c * terms, (c + 1) * terms);
      let dot = 0;
      for (let i = 0; i < terms; i++) dot += (colR[i] as number) * (colC[i] as number);
      gram[c * width + r] = dot;
      gram[r * width + c] = dot;
    }
  }
  const { values, vectors } = await symmetricEigen(gram, width, pause);

  const components = new Float64Array(terms * rank);
  const singularValues = new Float64Array(rank);
  for (let c = 0; c < rank; c++) {
    await pause();
    const sigma = Math.sqrt(Math.max(values[c] as number, 0));
    singularValues[c] = sigma;
    if (sigma < 1e-12) continue;
    const target = components.subarray(c * terms, (c + 1) * terms);
    for (let j = 0; j < width; j++) {
      const weight = (vectors[c * width + j] as number) / sigma;
      if (weight === 0) continue;
      const source = bt.subarray(j * terms, (j + 1) * terms);
      for (let i = 0; i < terms; i++) target[i] = (target[i] as number) + weight * (source[i] as number);
    }
  }
  return { components, singularValues, rank, terms };
}
