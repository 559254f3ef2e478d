-- V11: file-row purges delete a file's column stats and partition values
-- themselves. The cascading foreign keys hog_file_column_stats → hog_data_file
-- and hog_file_partition_value → hog_data_file fired two RI triggers (two
-- single-row DELETEs) per deleted file row. The expiry purge and table
-- retirement (the only deleters of file rows: catalog and table rows are
-- never deleted) now delete a page's children with one set-based statement
-- in the transaction that deletes the page's file rows, right after it.
-- Writers insert a file row and its children in one statement
-- (data_file_writes) or after updating the file row in the same transaction
-- (hydrator), so no child is written without its file row.
ALTER TABLE hog_file_column_stats
  DROP CONSTRAINT hog_file_column_stats_catalog_id_data_file_id_fkey;
ALTER TABLE hog_file_partition_value
  DROP CONSTRAINT hog_file_partition_value_catalog_id_data_file_id_fkey;
-- The removal queue's foreign key to hog_catalog fired one RI check (a
-- FOR KEY SHARE lookup of the catalog row) per queued path; the purge queues
-- up to 10,000 paths per statement. Every writer of the queue names the
-- catalog it works in, and catalog rows are never deleted.
ALTER TABLE hog_file_removal DROP CONSTRAINT hog_file_removal_catalog_id_fkey;
