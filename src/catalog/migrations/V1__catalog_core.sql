-- V1: the catalog's core model. Every table is keyed by catalog_id first;
-- ids other than catalog_id are per-catalog counters kept on hog_catalog
-- (deliberately unindexed so the per-commit UPDATE stays HOT). Versioned rows
-- carry [begin_snapshot, end_snapshot): visible at S iff
-- begin_snapshot <= S AND (end_snapshot IS NULL OR S < end_snapshot).

CREATE TABLE hog_catalog (
  catalog_id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name                       text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
  data_path                  text NOT NULL,
  last_snapshot_id           bigint NOT NULL DEFAULT 0,
  schema_version             bigint NOT NULL DEFAULT 0,
  next_table_id              bigint NOT NULL DEFAULT 1,
  next_file_id               bigint NOT NULL DEFAULT 1,
  next_namespace_id          bigint NOT NULL DEFAULT 1,
  next_view_id               bigint NOT NULL DEFAULT 1,
  snapshot_retention_seconds bigint CHECK (snapshot_retention_seconds > 0),
  consumer_floor             boolean NOT NULL DEFAULT true,
  earliest_snapshot_id       bigint NOT NULL DEFAULT 0,
  earliest_snapshot_time     timestamptz,
  created_at                 timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE hog_snapshot (
  catalog_id     bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  snapshot_id    bigint NOT NULL CHECK (snapshot_id >= 0),
  snapshot_time  timestamptz NOT NULL,
  schema_version bigint NOT NULL,
  author         text,
  commit_message text,
  PRIMARY KEY (catalog_id, snapshot_id)
);
CREATE INDEX hog_snapshot_time ON hog_snapshot (catalog_id, snapshot_time);

CREATE TABLE hog_snapshot_change (
  catalog_id  bigint NOT NULL,
  snapshot_id bigint NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('namespace_created', 'namespace_dropped',
                'table_created', 'table_dropped', 'table_altered', 'table_inserted_into',
                'table_deleted_from', 'table_compacted', 'view_created', 'view_dropped')),
  object_id   bigint NOT NULL,
  FOREIGN KEY (catalog_id, snapshot_id) REFERENCES hog_snapshot ON DELETE CASCADE
);
CREATE INDEX hog_snapshot_change_conflict ON hog_snapshot_change (catalog_id, object_id, kind, snapshot_id);
CREATE INDEX hog_snapshot_change_by_snapshot ON hog_snapshot_change (catalog_id, snapshot_id);

CREATE TABLE hog_namespace (
  catalog_id       bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  namespace_id     bigint NOT NULL,
  name             text NOT NULL CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_-]{0,127}$'),
  created_snapshot bigint NOT NULL,
  dropped_snapshot bigint,
  created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (catalog_id, namespace_id),
  CHECK (dropped_snapshot IS NULL OR dropped_snapshot > created_snapshot)
);
CREATE UNIQUE INDEX hog_namespace_live_name ON hog_namespace (catalog_id, name)
  WHERE dropped_snapshot IS NULL;

CREATE TABLE hog_table (
  catalog_id        bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  table_id          bigint NOT NULL,
  table_uuid        uuid NOT NULL,
  created_snapshot  bigint NOT NULL,
  dropped_snapshot  bigint,
  next_field_id     integer NOT NULL DEFAULT 1,
  replaced_table_id bigint,
  PRIMARY KEY (catalog_id, table_id),
  UNIQUE (catalog_id, table_uuid),
  CONSTRAINT hog_table_no_self_replacement CHECK (replaced_table_id <> table_id)
);

CREATE TABLE hog_table_version (
  catalog_id     bigint NOT NULL,
  table_id       bigint NOT NULL,
  begin_snapshot bigint NOT NULL,
  end_snapshot   bigint,
  namespace_id   bigint NOT NULL,
  name           text NOT NULL CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_-]{0,127}$'),
  comment        text,
  properties     jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (catalog_id, table_id, begin_snapshot),
  FOREIGN KEY (catalog_id, table_id) REFERENCES hog_table ON DELETE CASCADE,
  FOREIGN KEY (catalog_id, namespace_id) REFERENCES hog_namespace DEFERRABLE INITIALLY DEFERRED,
  CHECK (end_snapshot IS NULL OR end_snapshot > begin_snapshot)
);
CREATE UNIQUE INDEX hog_table_version_live_name ON hog_table_version (catalog_id, namespace_id, name)
  WHERE end_snapshot IS NULL;
CREATE INDEX hog_table_version_namespace ON hog_table_version (catalog_id, namespace_id);
CREATE INDEX hog_table_version_live ON hog_table_version (catalog_id, table_id)
  WHERE end_snapshot IS NULL;

CREATE TABLE hog_column (
  catalog_id      bigint NOT NULL,
  table_id        bigint NOT NULL,
  field_id        integer NOT NULL CHECK (field_id > 0),
  begin_snapshot  bigint NOT NULL,
  end_snapshot    bigint,
  name            text NOT NULL CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_-]{0,127}$'),
  col_type        text NOT NULL CONSTRAINT hog_column_col_type CHECK (col_type IN (
                    'boolean', 'int8', 'int16', 'int', 'long', 'uint8', 'uint16', 'uint32',
                    'uint64', 'float', 'double', 'decimal', 'date', 'time', 'timestamp_s',
                    'timestamp_ms', 'timestamp', 'timestamp_ns', 'timestamptz', 'string', 'json',
                    'uuid', 'binary', 'variant', 'list', 'struct', 'map')),
  type_params     jsonb,
  nullable        boolean NOT NULL DEFAULT true,
  ordinal         integer NOT NULL CHECK (ordinal >= 0),
  parent_field_id integer,
  comment         text,
  PRIMARY KEY (catalog_id, table_id, field_id, begin_snapshot),
  FOREIGN KEY (catalog_id, table_id) REFERENCES hog_table ON DELETE CASCADE,
  CHECK (end_snapshot IS NULL OR end_snapshot > begin_snapshot),
  CONSTRAINT hog_column_parent_precedes_child CHECK (parent_field_id < field_id)
);
CREATE INDEX hog_column_live ON hog_column (catalog_id, table_id) WHERE end_snapshot IS NULL;
CREATE UNIQUE INDEX hog_column_live_ordinal ON hog_column (catalog_id, table_id, parent_field_id, ordinal)
  NULLS NOT DISTINCT WHERE end_snapshot IS NULL;

CREATE TABLE hog_table_stats (
  catalog_id      bigint NOT NULL,
  table_id        bigint NOT NULL,
  record_count    bigint NOT NULL DEFAULT 0 CHECK (record_count >= 0),
  file_size_bytes bigint NOT NULL DEFAULT 0 CHECK (file_size_bytes >= 0),
  next_row_id     bigint NOT NULL DEFAULT 0 CHECK (next_row_id >= 0),
  PRIMARY KEY (catalog_id, table_id),
  FOREIGN KEY (catalog_id, table_id) REFERENCES hog_table ON DELETE CASCADE
);

CREATE TABLE hog_partition_spec (
  catalog_id     bigint NOT NULL,
  table_id       bigint NOT NULL,
  spec_id        bigint NOT NULL,
  begin_snapshot bigint NOT NULL,
  end_snapshot   bigint,
  PRIMARY KEY (catalog_id, table_id, spec_id),
  FOREIGN KEY (catalog_id, table_id) REFERENCES hog_table ON DELETE CASCADE,
  CHECK (end_snapshot IS NULL OR end_snapshot > begin_snapshot)
);
CREATE INDEX hog_partition_spec_live ON hog_partition_spec (catalog_id, table_id)
  WHERE end_snapshot IS NULL;

CREATE TABLE hog_partition_field (
  catalog_id      bigint NOT NULL,
  table_id        bigint NOT NULL,
  spec_id         bigint NOT NULL,
  key_index       integer NOT NULL CHECK (key_index >= 0),
  source_field_id integer NOT NULL,
  transform       text NOT NULL CHECK (transform IN ('identity', 'bucket', 'year', 'month', 'day', 'hour')),
  transform_param integer,
  PRIMARY KEY (catalog_id, table_id, spec_id, key_index),
  FOREIGN KEY (catalog_id, table_id, spec_id) REFERENCES hog_partition_spec ON DELETE CASCADE,
  CHECK ((transform = 'bucket') = (transform_param IS NOT NULL))
);

CREATE TABLE hog_sort_spec (
  catalog_id     bigint NOT NULL,
  table_id       bigint NOT NULL,
  sort_id        bigint NOT NULL,
  begin_snapshot bigint NOT NULL,
  end_snapshot   bigint,
  PRIMARY KEY (catalog_id, table_id, sort_id),
  FOREIGN KEY (catalog_id, table_id) REFERENCES hog_table ON DELETE CASCADE,
  CHECK (end_snapshot IS NULL OR end_snapshot > begin_snapshot)
);
CREATE INDEX hog_sort_spec_live ON hog_sort_spec (catalog_id, table_id) WHERE end_snapshot IS NULL;

CREATE TABLE hog_sort_field (
  catalog_id      bigint NOT NULL,
  table_id        bigint NOT NULL,
  sort_id         bigint NOT NULL,
  key_index       integer NOT NULL CHECK (key_index >= 0),
  source_field_id integer NOT NULL,
  direction       text NOT NULL CHECK (direction IN ('asc', 'desc')),
  null_order      text NOT NULL CHECK (null_order IN ('nulls_first', 'nulls_last')),
  PRIMARY KEY (catalog_id, table_id, sort_id, key_index),
  FOREIGN KEY (catalog_id, table_id, sort_id) REFERENCES hog_sort_spec ON DELETE CASCADE
);

CREATE TABLE hog_data_file (
  catalog_id        bigint NOT NULL,
  data_file_id      bigint NOT NULL,
  table_id          bigint NOT NULL,
  begin_snapshot    bigint NOT NULL,
  end_snapshot      bigint,
  path              text NOT NULL,
  file_format       text NOT NULL DEFAULT 'parquet' CHECK (file_format IN ('parquet')),
  record_count      bigint NOT NULL CHECK (record_count >= 0),
  file_size_bytes   bigint NOT NULL CHECK (file_size_bytes >= 0),
  footer_size       bigint,
  row_id_start      bigint NOT NULL,
  stats_state       text NOT NULL DEFAULT 'provided' CHECK (stats_state IN ('provided', 'pending', 'failed')),
  stats_error       text,
  spec_id           bigint,
  explicit_row_ids  boolean NOT NULL DEFAULT false,
  missing_field_ids boolean NOT NULL DEFAULT false,
  split_offsets     bigint[],
  PRIMARY KEY (catalog_id, data_file_id),
  FOREIGN KEY (catalog_id, table_id) REFERENCES hog_table ON DELETE CASCADE,
  CHECK (end_snapshot IS NULL OR end_snapshot > begin_snapshot)
);
CREATE INDEX hog_data_file_live ON hog_data_file (catalog_id, table_id, begin_snapshot)
  WHERE end_snapshot IS NULL;
CREATE INDEX hog_data_file_pending ON hog_data_file (catalog_id, data_file_id) INCLUDE (table_id)
  WHERE stats_state = 'pending' AND end_snapshot IS NULL;
CREATE INDEX hog_data_file_ended ON hog_data_file (catalog_id, end_snapshot)
  WHERE end_snapshot IS NOT NULL;
CREATE INDEX hog_data_file_changefeed ON hog_data_file (catalog_id, table_id, begin_snapshot);
CREATE INDEX hog_data_file_path ON hog_data_file (catalog_id, path);

CREATE TABLE hog_file_column_stats (
  catalog_id   bigint NOT NULL,
  data_file_id bigint NOT NULL,
  field_id     integer NOT NULL,
  value_count  bigint NOT NULL CHECK (value_count >= 0),
  null_count   bigint NOT NULL CHECK (null_count >= 0),
  nan_count    bigint,
  size_bytes   bigint,
  lower_bound  bytea,
  upper_bound  bytea,
  PRIMARY KEY (catalog_id, data_file_id, field_id),
  FOREIGN KEY (catalog_id, data_file_id) REFERENCES hog_data_file ON DELETE CASCADE
);

CREATE TABLE hog_file_partition_value (
  catalog_id   bigint NOT NULL,
  data_file_id bigint NOT NULL,
  key_index    integer NOT NULL,
  value        text,
  PRIMARY KEY (catalog_id, data_file_id, key_index),
  FOREIGN KEY (catalog_id, data_file_id) REFERENCES hog_data_file ON DELETE CASCADE
);
CREATE INDEX hog_file_partition_value_lookup ON hog_file_partition_value (catalog_id, key_index, value, data_file_id);

CREATE TABLE hog_commit_receipt (
  catalog_id      bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  idempotency_key uuid NOT NULL,
  fingerprint     bytea NOT NULL,
  snapshot_id     bigint NOT NULL,
  schema_version  bigint NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (catalog_id, idempotency_key)
);
CREATE INDEX hog_commit_receipt_created ON hog_commit_receipt (catalog_id, created_at);
