-- V13: a cheaper removal queue to insert into. The expiry purge queues up to
-- 10,000 paths per statement, and every queued path paid a heap row plus
-- three index entries: the primary key (removal_id), the drain index
-- (catalog_id, removal_id) and a btree over (catalog_id, path) whose ~60-byte
-- text keys land on scattered leaf pages.
--
-- * The primary key goes. removal_id stays an identity (GENERATED ALWAYS, so
--   still unique); every lookup by removal_id (cleanup's claim, settle and
--   release) names the catalog and an undrained row, which the partial drain
--   index serves.
-- * The path index becomes a hash index on path alone (undrained rows only):
--   a 4-byte hash code per entry instead of the whole path. Its only readers
--   are the commit path's "is this path queued?" checks (uploads.cc:
--   path = ANY($paths) AND catalog_id = $1 AND drained_at IS NULL), which a
--   bitmap scan of it answers; catalog_id is checked on the heap row.
SET LOCAL lock_timeout = '5s';
ALTER TABLE hog_file_removal DROP CONSTRAINT hog_file_removal_pkey;
DROP INDEX hog_file_removal_undrained_path;
CREATE INDEX hog_file_removal_undrained_path ON hog_file_removal USING hash (path)
  WHERE drained_at IS NULL;
