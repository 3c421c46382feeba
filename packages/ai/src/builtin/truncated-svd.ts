import { createYielder, seededRandom, type Yielder } from '@radar/shared';
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
 * The dense matrices of the iteration are row-major (row r of a `cols`-wide matrix at [r * cols,
 * (r + 1) * cols)): each non-zero of the sparse matrix then touches one contiguous row, and one pass
 * over the sparse rows makes a whole product, where a column at a time read the sparse matrix once per
 * column (docs/decisions.md, "Issue 35: the first fit and the vectors of a bulk ingest").
 */

/**
 * out[base, base + cols) += the weighted sum of `count` rows of `m` (weights[k] times m's row
 * indices[k]), four rows at a time: each output element is then read and written once for four
 * multiply-adds instead of once for each, which is where these products spent their time.
 */
function addWeightedRows(
  out: Float64Array,
  base: number,
  m: Float32Array,
  cols: number,
  indices: ArrayLike<number>,
  weights: ArrayLike<number>,
  from: number,
  to: number,
): void {
  let k = from;
  for (; k + 3 < to; k += 4) {
    const w0 = weights[k] as number;
    const w1 = weights[k + 1] as number;
    const w2 = weights[k + 2] as number;
    const w3 = weights[k + 3] as number;
    const o0 = (indices[k] as number) * cols;
    const o1 = (indices[k + 1] as number) * cols;
    const o2 = (indices[k + 2] as number) * cols;
    const o3 = (indices[k + 3] as number) * cols;
    for (let c = 0; c < cols; c++)
      out[base + c] =
        (out[base + c] as number) +
        (w0 * (m[o0 + c] as number) +
          w1 * (m[o1 + c] as number) +
          w2 * (m[o2 + c] as number) +
          w3 * (m[o3 + c] as number));
  }
  for (; k < to; k++) {
    const weight = weights[k] as number;
    const offset = (indices[k] as number) * cols;
    for (let c = 0; c < cols; c++) out[base + c] = (out[base + c] as number) + weight * (m[offset + c] as number);
  }
}

/** rows x cols product A * M, with A sparse (rows) and M dense terms x cols, both row-major. */
async function multiply(rows: SparseVector[], m: Float32Array, cols: number, pause: Yielder): Promise<Float64Array> {
  const n = rows.length;
  const out = new Float64Array(n * cols);
  for (let i = 0; i < n; i++) {
    if (i % 256 === 0) await pause();
    const row = rows[i] as SparseVector;
    addWeightedRows(out, i * cols, m, cols, row.indices, row.values, 0, row.indices.length);
  }
  return out;
}

/** A sparse documents x terms matrix by term (compressed columns): each term's documents and weights. */
interface ByTerm {
  starts: Uint32Array;
  documents: Uint32Array;
  values: Float64Array;
}

function transpose(rows: SparseVector[], terms: number): ByTerm {
  const starts = new Uint32Array(terms + 1);
  for (const row of rows) for (const index of row.indices) starts[index + 1] = (starts[index + 1] as number) + 1;
  for (let t = 0; t < terms; t++) starts[t + 1] = (starts[t + 1] as number) + (starts[t] as number);
  const next = starts.slice(0, terms);
  const documents = new Uint32Array(starts[terms] as number);
  const values = new Float64Array(starts[terms] as number);
  rows.forEach((row, document) => {
    for (let k = 0; k < row.indices.length; k++) {
      const slot = next[row.indices[k] as number] as number;
      next[row.indices[k] as number] = slot + 1;
      documents[slot] = document;
      values[slot] = row.values[k] as number;
    }
  });
  return { starts, documents, values };
}

/**
 * terms x cols product A^T * Y, with Y dense rows x cols, both row-major. By term, so each output row
 * is summed in one place rather than scattered to from every document.
 */
async function multiplyTransposed(
  byTerm: ByTerm,
  y: Float32Array,
  terms: number,
  cols: number,
  pause: Yielder,
): Promise<Float64Array> {
  const { starts, documents, values } = byTerm;
  const out = new Float64Array(terms * cols);
  for (let t = 0; t < terms; t++) {
    if (t % 512 === 0) await pause();
    addWeightedRows(out, t * cols, y, cols, documents, values, starts[t] as number, starts[t + 1] as number);
  }
  return out;
}

/**
 * The columns' Gram matrix M^T M (cols x cols, symmetric) of a row-major rowCount x cols matrix. Four
 * rows at a time, so each element of the Gram matrix is read and written once for four multiply-adds.
 */
async function gramOf(matrix: Float64Array, rowCount: number, cols: number, pause: Yielder): Promise<Float64Array> {
  const gram = new Float64Array(cols * cols);
  let r = 0;
  for (; r + 3 < rowCount; r += 4) {
    if (r % 256 === 0) await pause();
    const b0 = r * cols;
    const b1 = b0 + cols;
    const b2 = b1 + cols;
    const b3 = b2 + cols;
    for (let a = 0; a < cols; a++) {
      const v0 = matrix[b0 + a] as number;
      const v1 = matrix[b1 + a] as number;
      const v2 = matrix[b2 + a] as number;
      const v3 = matrix[b3 + a] as number;
      if (v0 === 0 && v1 === 0 && v2 === 0 && v3 === 0) continue;
      const line = a * cols;
      for (let b = a; b < cols; b++)
        gram[line + b] =
          (gram[line + b] as number) +
          (v0 * (matrix[b0 + b] as number) +
            v1 * (matrix[b1 + b] as number) +
            v2 * (matrix[b2 + b] as number) +
            v3 * (matrix[b3 + b] as number));
    }
  }
  for (; r < rowCount; r++) {
    const base = r * cols;
    for (let a = 0; a < cols; a++) {
      const value = matrix[base + a] as number;
      if (value === 0) continue;
      const line = a * cols;
      for (let b = a; b < cols; b++) gram[line + b] = (gram[line + b] as number) + value * (matrix[base + b] as number);
    }
  }
  for (let a = 0; a < cols; a++) for (let b = a + 1; b < cols; b++) gram[b * cols + a] = gram[a * cols + b] as number;
  return gram;
}

/**
 * One Cholesky QR step in place: M := M R^-1 where R^T R = M^T M. Returns false, leaving M as it was,
 * when M^T M is not safely positive definite (nearly dependent or zero columns), for orthonormalize's
 * Gram-Schmidt to handle.
 */
async function choleskyQrStep(matrix: Float64Array, rowCount: number, cols: number, pause: Yielder): Promise<boolean> {
  const gram = await gramOf(matrix, rowCount, cols, pause);
  // Upper-triangular R, row-major, from the Cholesky factorisation of the Gram matrix.
  const r = new Float64Array(cols * cols);
  let largest = 0;
  for (let a = 0; a < cols; a++) largest = Math.max(largest, gram[a * cols + a] as number);
  for (let a = 0; a < cols; a++) {
    let diagonal = gram[a * cols + a] as number;
    for (let p = 0; p < a; p++) diagonal -= (r[p * cols + a] as number) ** 2;
    // A pivot this small relative to the largest column loses the precision the next step needs.
    if (!(diagonal > largest * 1e-10)) return false;
    const pivot = Math.sqrt(diagonal);
    r[a * cols + a] = pivot;
    for (let b = a + 1; b < cols; b++) {
      let sum = gram[a * cols + b] as number;
      for (let p = 0; p < a; p++) sum -= (r[p * cols + a] as number) * (r[p * cols + b] as number);
      r[a * cols + b] = sum / pivot;
    }
  }
  // Each row x solves x R = m (forward substitution over the columns), with R's columns contiguous
  // (rt, R transposed) and two rows at a time, so each element of R read serves two multiply-adds.
  const rt = new Float64Array(cols * cols);
  for (let a = 0; a < cols; a++) for (let b = a; b < cols; b++) rt[b * cols + a] = r[a * cols + b] as number;
  let row = 0;
  for (; row + 1 < rowCount; row += 2) {
    if (row % 256 === 0) await pause();
    const b0 = row * cols;
    const b1 = b0 + cols;
    for (let c = 0; c < cols; c++) {
      const line = c * cols;
      let s0 = matrix[b0 + c] as number;
      let s1 = matrix[b1 + c] as number;
      for (let p = 0; p < c; p++) {
        const value = rt[line + p] as number;
        s0 -= (matrix[b0 + p] as number) * value;
        s1 -= (matrix[b1 + p] as number) * value;
      }
      const pivot = rt[line + c] as number;
      matrix[b0 + c] = s0 / pivot;
      matrix[b1 + c] = s1 / pivot;
    }
  }
  for (; row < rowCount; row++) {
    const base = row * cols;
    for (let c = 0; c < cols; c++) {
      const line = c * cols;
      let sum = matrix[base + c] as number;
      for (let p = 0; p < c; p++) sum -= (matrix[base + p] as number) * (rt[line + p] as number);
      matrix[base + c] = sum / (rt[line + c] as number);
    }
  }
  return true;
}

/** Modified Gram-Schmidt on the columns of a row-major matrix, applied twice; dependent columns become zero. */
async function gramSchmidt(matrix: Float64Array, rowCount: number, cols: number, pause: Yielder): Promise<void> {
  // Column-major copy, so each column is contiguous, and back.
  const columns = new Float64Array(rowCount * cols);
  for (let i = 0; i < rowCount; i++)
    for (let c = 0; c < cols; c++) columns[c * rowCount + i] = matrix[i * cols + c] as number;
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < cols; c++) {
      await pause();
      const col = columns.subarray(c * rowCount, (c + 1) * rowCount);
      for (let p = 0; p < c; p++) {
        const prev = columns.subarray(p * rowCount, (p + 1) * rowCount);
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
  for (let i = 0; i < rowCount; i++)
    for (let c = 0; c < cols; c++) matrix[i * cols + c] = columns[c * rowCount + i] as number;
}

/**
 * Orthonormalises the columns of a row-major matrix in place. Cholesky QR (one Gram matrix and one
 * triangular solve per row, both over contiguous rows) twice, which is as accurate as Gram-Schmidt
 * twice when the columns are well conditioned; `passes` 1 is enough between power iterations, whose
 * next product is orthonormalised again. Nearly dependent columns (a small corpus, fewer topics than
 * directions) go to Gram-Schmidt, which zeroes what is dependent.
 */
async function orthonormalize(
  matrix: Float64Array,
  rowCount: number,
  cols: number,
  pause: Yielder,
  passes = 2,
): Promise<void> {
  for (let pass = 0; pass < passes; pass++) {
    if (!(await choleskyQrStep(matrix, rowCount, cols, pause))) {
      await gramSchmidt(matrix, rowCount, cols, pause);
      return;
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

  // Row-major terms x width: the same random numbers as column by column, in a different layout.
  const omega = new Float32Array(terms * width);
  for (let c = 0; c < width; c++) {
    await pause();
    for (let t = 0; t < terms; t++) omega[t * width + c] = gaussian(random);
  }
  const byTerm = transpose(rows, terms);
  let q = await multiply(rows, omega, width, pause);
  await orthonormalize(q, n, width, pause, 1);
  const iterations = options.powerIterations ?? 4;
  for (let iteration = 0; iteration < iterations; iteration++) {
    // A^T Q is not orthonormalised: it spans the same columns either way, and A (A^T Q) is orthonormalised
    // next; in double precision the conditioning this allows is far from a problem for LSA's spectra.
    const z = await multiplyTransposed(byTerm, Float32Array.from(q), terms, width, pause);
    q = await multiply(rows, Float32Array.from(z), width, pause);
    await orthonormalize(q, n, width, pause, iteration === iterations - 1 ? 2 : 1);
  }
  if (iterations === 0) await orthonormalize(q, n, width, pause, 1);
  // B = Q^T A, kept transposed (terms x width, row-major); the SVD of B comes from the eigen-decomposition of B B^T.
  const bt = await multiplyTransposed(byTerm, Float32Array.from(q), terms, width, pause);
  const gram = await gramOf(bt, terms, width, pause);
  const { values, vectors } = await symmetricEigen(gram, width, pause);

  const components = new Float64Array(terms * rank);
  const singularValues = new Float64Array(rank);
  // Component c is B^T's rows times eigenvector c over sigma; a zero sigma leaves its weights zero.
  const weights = new Float64Array(rank * width);
  for (let c = 0; c < rank; c++) {
    const sigma = Math.sqrt(Math.max(values[c] as number, 0));
    singularValues[c] = sigma;
    if (sigma < 1e-12) continue;
    for (let j = 0; j < width; j++) weights[c * width + j] = (vectors[c * width + j] as number) / sigma;
  }
  // Four components at a time, so each element of B^T read serves four multiply-adds.
  for (let c = 0; c < rank; c += 4) {
    await pause();
    const count = Math.min(4, rank - c);
    const w0 = c * width;
    const w1 = count > 1 ? w0 + width : w0;
    const w2 = count > 2 ? w0 + 2 * width : w0;
    const w3 = count > 3 ? w0 + 3 * width : w0;
    for (let t = 0; t < terms; t++) {
      const base = t * width;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let j = 0; j < width; j++) {
        const value = bt[base + j] as number;
        s0 += (weights[w0 + j] as number) * value;
        s1 += (weights[w1 + j] as number) * value;
        s2 += (weights[w2 + j] as number) * value;
        s3 += (weights[w3 + j] as number) * value;
      }
      components[c * terms + t] = s0;
      if (count > 1) components[(c + 1) * terms + t] = s1;
      if (count > 2) components[(c + 2) * terms + t] = s2;
      if (count > 3) components[(c + 3) * terms + t] = s3;
    }
  }
  return { components, singularValues, rank, terms };
}
