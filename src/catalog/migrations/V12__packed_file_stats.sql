-- V12: a data file's column statistics are one packed row (hog_file_stats),
-- not one row per column (hog_file_column_stats). A scan plan with stats
-- read 600K rows for 20K files × 30 columns; now it reads 20K, and a commit
-- writes one stats row per file. The packed layout is defined in
-- src/catalog/packed_stats.h (big-endian, built here with int*send exactly
-- as the server builds it). A provided file with no statistics
-- (`column_stats: []`) has no row. No foreign key (as V11): the two places
-- that delete file rows delete this child with them (file_children.h).
CREATE TABLE hog_file_stats (
  catalog_id   bigint NOT NULL,
  data_file_id bigint NOT NULL,
  stats        bytea NOT NULL,
  PRIMARY KEY (catalog_id, data_file_id)
);

INSERT INTO hog_file_stats (catalog_id, data_file_id, stats)
SELECT catalog_id, data_file_id,
       '\x0001'::bytea || string_agg(
         int4send(field_id)
         || int2send(((nan_count IS NOT NULL)::int + 2 * (size_bytes IS NOT NULL)::int
                      + 4 * (lower_bound IS NOT NULL)::int
                      + 8 * (upper_bound IS NOT NULL)::int)::smallint)
         || int8send(value_count) || int8send(null_count)
         || coalesce(int8send(nan_count), ''::bytea)
         || coalesce(int8send(size_bytes), ''::bytea)
         || coalesce(int4send(length(lower_bound)) || lower_bound, ''::bytea)
         || coalesce(int4send(length(upper_bound)) || upper_bound, ''::bytea),
         ''::bytea ORDER BY field_id)
FROM hog_file_column_stats
GROUP BY catalog_id, data_file_id;

DROP TABLE hog_file_column_stats;
