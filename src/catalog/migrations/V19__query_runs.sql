-- The query service's state (src/query): SQL query runs and their results.
-- A run is queued → running → succeeded | failed | cancelled; its result
-- is pending → processing → ready | failed, the rows stored as one Parquet
-- object at `path`. The server executing a run (`instance`) refreshes
-- `heartbeat_at` while it works, so any replica can tell a run whose server
-- died (its heartbeat stops) and report it failed.
CREATE TABLE hog_query_result (
  result_id text PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('pending', 'processing', 'ready', 'failed')),
  path text,
  -- [{"name": …, "type": <PostgreSQL type name>}, …] once known
  columns jsonb,
  row_count bigint,
  size_bytes bigint,
  error_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX hog_query_result_created ON hog_query_result (created_at);

CREATE TABLE hog_query_run (
  run_id text PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  sql_text text NOT NULL,
  sql_hash text NOT NULL,
  default_catalog text,
  default_schema text,
  result_id text REFERENCES hog_query_result (result_id) ON DELETE SET NULL,
  error_message text,
  error_sqlstate text,
  row_count bigint,
  rows_scanned bigint,
  bytes_scanned bigint,
  execution_time_ms bigint,
  instance text NOT NULL,
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  cancel_requested boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX hog_query_run_listing ON hog_query_run (created_at DESC, run_id DESC);
CREATE INDEX hog_query_run_active ON hog_query_run (heartbeat_at)
  WHERE status IN ('queued', 'running');
