-- V16: two fewer checks on every commit's rows, one fewer index on every
-- file row.
--
-- * hog_snapshot and hog_snapshot_change lose their foreign keys to
--   hog_catalog. Each fired an RI check (an SPI FOR KEY SHARE lookup of the
--   catalog row) per inserted row — two per commit, under the commit lock —
--   and their ON DELETE CASCADE never fires: catalog rows are never deleted.
--   Every writer of these rows holds the catalog's commit lock and has just
--   read the catalog row in the same transaction (commit_scope.cc), so no
--   row can name a catalog that does not exist.
-- * hog_data_file_live (catalog_id, table_id, begin_snapshot) WHERE
--   end_snapshot IS NULL duplicated hog_data_file_changefeed, the same key
--   over every row. Scans at a snapshot cannot use the partial index (their
--   predicate admits ended rows) and already read the changefeed index; the
--   few statements that want a table's live files (drop, replace,
--   retirement) now read it too and skip ended rows, which expiry purges.
--   Each file row inserted paid for both.
SET LOCAL lock_timeout = '5s';
ALTER TABLE hog_snapshot DROP CONSTRAINT hog_snapshot_catalog_id_fkey;
ALTER TABLE hog_snapshot_change DROP CONSTRAINT hog_snapshot_change_catalog_fkey;
DROP INDEX hog_data_file_live;
