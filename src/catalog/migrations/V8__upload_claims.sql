-- V8: upload claims (contract §2.11). A claim reserves a server-generated
-- object path for an external writer (owner = the operation that will
-- publish it). States: active (leased until expires_at), registered (a
-- commit published the path), abandoned (the owner gave up, or the lease ran
-- out and the sweep fenced it). Cleanup keeps any path an active claim names;
-- the sweep queues abandoned paths (removal reason trino_upload, already
-- allowed by V4's CHECK).
SET LOCAL lock_timeout = '5s';
CREATE TABLE hog_upload (
  catalog_id        bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  upload_id         uuid NOT NULL,
  owner             uuid NOT NULL,
  prefix            text NOT NULL,
  path              text NOT NULL,
  file_kind         text NOT NULL CHECK (file_kind IN ('data', 'delete')),
  file_format       text,
  state             text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'registered', 'abandoned')),
  created_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at        timestamptz NOT NULL DEFAULT clock_timestamp() + interval '24 hours',
  last_scheduled_at timestamptz,
  PRIMARY KEY (catalog_id, upload_id),
  UNIQUE (catalog_id, path),
  CHECK (file_kind = 'data' OR file_format IS NULL)
);
CREATE INDEX hog_upload_owner ON hog_upload (catalog_id, owner) WHERE state = 'active';
CREATE INDEX hog_upload_cleanup ON hog_upload (catalog_id, last_scheduled_at, upload_id)
  WHERE state <> 'registered';
