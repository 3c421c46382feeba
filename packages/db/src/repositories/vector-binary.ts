import { sql } from 'drizzle-orm';
import type { Database } from '../connection';

/*
 * Vectors sent to PostgreSQL in binary (a Buffer parameter, which node-postgres binds in binary format)
 * instead of pgvector's text form: reading '[0.0123,...]' back into float4 is strtof once per element,
 * which in PGlite's WebAssembly cost 0.115 ms for a 128-dimension vector, about a fifth of a bulk
 * insert's work per paper (docs/benchmarks.md, tenth session). Each value is rounded to float4 once,
 * here (Math.fround), where the text form rounded twice (to nine digits, then to float4).
 */

/** The vector type's OID by database handle (the promise, so concurrent first uses ask once). */
const vectorOids = new WeakMap<Database, Promise<number>>();

/**
 * The OID of pgvector's `vector` type in this database: a binary array names its element type, and an
 * extension's type has no fixed OID. Asked once per database handle: the app never makes the extension
 * again while it runs, and asking before every write added a round trip to each profile's vector and
 * each batch of the content-embed jobs. A failed question is asked again next time.
 */
export function vectorTypeOid(db: Database): Promise<number> {
  let oid = vectorOids.get(db);
  if (!oid) {
    oid = db
      .execute<{ oid: string | number }>(sql`SELECT 'vector'::regtype::oid AS oid`)
      .then((result) => Number(result.rows[0]?.oid));
    oid.catch(() => vectorOids.delete(db));
    vectorOids.set(db, oid);
  }
  return oid;
}

/**
 * A `vector[]` in PostgreSQL's binary array form (array_recv): dimensions, then each element as
 * vector_recv reads it (int16 dimension, int16 zero, the values as big-endian float4); null elements
 * for rows without a vector. pgvector refuses NaN and infinities, as from text.
 */
export function vectorArrayBinary(
  vectors: readonly (readonly number[] | null | undefined)[],
  vectorOid: number,
): Buffer {
  let size = 20;
  for (const vector of vectors) size += 4 + (vector ? 4 + 4 * vector.length : 0);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  at = out.writeInt32BE(1, at); // dimensions
  at = out.writeInt32BE(vectors.some((vector) => !vector) ? 1 : 0, at); // has nulls
  at = out.writeUInt32BE(vectorOid, at);
  at = out.writeInt32BE(vectors.length, at);
  at = out.writeInt32BE(1, at); // lower bound
  for (const vector of vectors) {
    if (!vector) {
      at = out.writeInt32BE(-1, at);
      continue;
    }
    at = out.writeInt32BE(4 + 4 * vector.length, at);
    at = out.writeInt16BE(vector.length, at);
    at = out.writeInt16BE(0, at);
    for (const value of vector) at = out.writeFloatBE(value, at);
  }
  return out;
}
