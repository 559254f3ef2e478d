-- V15: a file row no longer carries a foreign key to its table. The key fired
-- one RI check per inserted file row (a FOR KEY SHARE lookup of the
-- hog_table row, through SPI) — ten per ten-file commit, about a tenth of
-- the PostgreSQL time of the connection that runs a catalog's commit
-- batches, under the commit lock. Its ON DELETE CASCADE never fires: table
-- rows are never deleted (a dropped table keeps its row; retirement deletes
-- its file rows and their children itself, retirement.cc). Every writer of
-- file rows resolves the table under the catalog's commit lock in the same
-- transaction (data_file_writes, table creation publishes), so no file row
-- can name a table that does not exist.
SET LOCAL lock_timeout = '5s';
ALTER TABLE hog_data_file DROP CONSTRAINT hog_data_file_catalog_id_table_id_fkey;
