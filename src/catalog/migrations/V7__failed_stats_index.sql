-- V7: a partial index over live files whose stats hydration failed, so the
-- maintenance status can count the hydrator's failed backlog without a scan
-- of the catalog's live files (failed files are rare: the index stays tiny).
SET LOCAL lock_timeout = '5s';
CREATE INDEX hog_data_file_failed ON hog_data_file (catalog_id, data_file_id) INCLUDE (table_id)
  WHERE stats_state = 'failed' AND end_snapshot IS NULL;
