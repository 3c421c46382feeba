-- The per-model HNSW indexes are built with m = 24, ef_construction = 128 (EmbeddingRepository.ensureIndexes;
-- at 1M papers pgvector's defaults found 0.77-0.93 of the true top 20, this graph 0.96-0.995). Indexes built
-- before with the defaults are rebuilt once here, with the same definition and the new parameters. On a large
-- installation this takes minutes (about 4 at 1M papers on 2 cores with enough maintenance_work_mem).
DO $$
DECLARE
  hnsw record;
BEGIN
  FOR hnsw IN
    SELECT c.relname AS name, pg_get_indexdef(c.oid) AS definition
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'radar'
      AND c.relkind = 'i'
      AND c.relname ~ '_embedding_m[0-9]+_hnsw$'
      AND NOT coalesce(c.reloptions @> ARRAY['m=24', 'ef_construction=128'], false)
  LOOP
    EXECUTE format('DROP INDEX radar.%I', hnsw.name);
    EXECUTE replace(hnsw.definition, ' WHERE ', ' WITH (m = 24, ef_construction = 128) WHERE ');
  END LOOP;
END
$$;
