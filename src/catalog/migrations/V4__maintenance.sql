-- V4: the physical-deletion queue and the maintenance run ledger.
-- hog_file_removal rows are suggestions: cleanup deletes an object only after
-- checking at drain time that no file row references the path.
CREATE TABLE hog_file_removal (
  removal_id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  catalog_id      bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  path            text NOT NULL,
  file_kind       text NOT NULL CHECK (file_kind IN ('data', 'delete')),
  reason          text NOT NULL CHECK (reason IN ('snapshot_expiry', 'table_drop_gc', 'compaction_staging',
                                                  'trino_upload')),
  scheduled_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  attempts        integer NOT NULL DEFAULT 0,
  last_attempt_at timestamptz,
  drained_at      timestamptz,
  drained_outcome text CHECK (drained_outcome IN ('deleted', 'absent', 'registered')),
  claimed_at      timestamptz,
  claimed_by      text,
  CHECK ((drained_at IS NULL) = (drained_outcome IS NULL))
);
CREATE INDEX hog_file_removal_drain ON hog_file_removal (catalog_id, removal_id) WHERE drained_at IS NULL;
CREATE INDEX hog_file_removal_undrained_path ON hog_file_removal (catalog_id, path) WHERE drained_at IS NULL;

CREATE TABLE hog_maintenance_run (
  run_id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  catalog_id  bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  task        text NOT NULL CHECK (task IN ('hydrator', 'expiry', 'cleanup', 'compaction', 'verify',
                                            'retirement', 'reindex')),
  run_trigger text NOT NULL CHECK (run_trigger IN ('loop', 'manual')),
  started_at  timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  status      text NOT NULL CHECK (status IN ('ok', 'failed')),
  error       text,
  result      jsonb,
  CHECK (finished_at >= started_at),
  CHECK ((status = 'failed') = (error IS NOT NULL))
);
CREATE INDEX hog_maintenance_run_task ON hog_maintenance_run (catalog_id, task, run_id DESC);
CREATE INDEX hog_maintenance_run_catalog ON hog_maintenance_run (catalog_id, run_id DESC);
CREATE INDEX hog_maintenance_run_global ON hog_maintenance_run (task, run_id DESC);
