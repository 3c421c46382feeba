-- Hand-written: pgvector must exist before any table with a vector column.
-- On a PostgreSQL server this needs pgvector >= 0.8 installed (see README) and a role allowed to
-- create extensions; embedded PGlite loads the bundled pgvector build.
CREATE EXTENSION IF NOT EXISTS vector;
