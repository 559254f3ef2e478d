-- The query service's managed databases and uploads (src/query).
--
-- hog_managed_database: a hoglake catalog the query API created for a
-- Hotdata client, either a managed connection (POST /v1/connections,
-- kind 'connection': id = name = catalog name) or a database (POST
-- /v1/databases, kind 'database': id = catalog name, free-form name). The
-- catalog itself is an ordinary catalog; there is no catalog drop, so a
-- deleted one keeps a tombstone (dropped_at) that hides its emptied catalog
-- from the connection listing; a managed connection created again under
-- the same name takes its tombstone back.
CREATE TABLE hog_managed_database (
  id text PRIMARY KEY,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('connection', 'database')),
  catalog_name text NOT NULL UNIQUE,
  default_schema text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  dropped_at timestamptz
);
CREATE UNIQUE INDEX hog_managed_connection_name ON hog_managed_database (name)
  WHERE kind = 'connection' AND dropped_at IS NULL;
CREATE INDEX hog_managed_database_listing ON hog_managed_database (created_at DESC, id DESC)
  WHERE kind = 'database' AND dropped_at IS NULL;

-- hog_query_upload: bytes a client uploaded for a load (POST /v1/files, or
-- the presigned POST /v1/uploads → PUT → finalize flow), stored as the
-- object `path` under the results root. pending → ready (finalized) →
-- claimed (consumed by exactly one load). Pending uploads expire.
CREATE TABLE hog_query_upload (
  upload_id text PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('pending', 'ready', 'claimed')),
  content_type text,
  declared_size_bytes bigint,
  part_size bigint,
  size_bytes bigint,
  path text NOT NULL,
  -- hex SHA-256 of the finalize token (the token itself is never stored)
  finalize_token_sha256 text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  finalized_at timestamptz,
  claimed_at timestamptz
);
CREATE INDEX hog_query_upload_pending ON hog_query_upload (expires_at) WHERE status = 'pending';
