-- V14: the metrics sampler (health_sample.cc) no longer scans every live
-- file each time it runs. A table's live file count joins its live row and
-- byte totals in hog_table_stats (kept by the same writers: commits and
-- table-creation publishes add, a truncating alter resets), and the live
-- files missing field ids get a partial index like the pending and failed
-- ones, so every figure the sampler reads is one row per table or an index
-- over the few files it counts.
SET LOCAL lock_timeout = '5s';
ALTER TABLE hog_table_stats
  ADD COLUMN file_count bigint NOT NULL DEFAULT 0 CHECK (file_count >= 0);
UPDATE hog_table_stats s SET file_count = f.n
FROM (SELECT catalog_id, table_id, count(*) AS n FROM hog_data_file
      WHERE end_snapshot IS NULL GROUP BY catalog_id, table_id) f
WHERE s.catalog_id = f.catalog_id AND s.table_id = f.table_id;
CREATE INDEX hog_data_file_missing_ids ON hog_data_file (catalog_id, data_file_id) INCLUDE (table_id)
  WHERE missing_field_ids AND end_snapshot IS NULL;
