-- V17: the data-file path index becomes a hash index on path alone.
--
-- hog_data_file_path (catalog_id, path) held each file's whole path in a
-- B-tree. Clients name files by random UUIDs (<data_path>/data/<ns>/<table>/
-- <uuid>.parquet), so every commit's file rows landed on random leaf pages
-- of the largest index of the largest table: a long-key descent, a page
-- split now and then, and a full-page image in the WAL for each page first
-- touched after a checkpoint. A hash index keeps a 4-byte hash code per
-- entry (a quarter of the size at 400K rows) and its inserts cost half as
-- much (docs/benchmarks.md, "Seventh round"). Its readers are the lookups of
-- given paths — cleanup's "still referenced?" check (path = ANY($paths)) and
-- the upload claims' "already registered?" probe (path = f.path) — which a
-- bitmap or index scan of it answers; catalog_id is checked on the heap row.
SET LOCAL lock_timeout = '5s';
DROP INDEX hog_data_file_path;
CREATE INDEX hog_data_file_path ON hog_data_file USING hash (path);
