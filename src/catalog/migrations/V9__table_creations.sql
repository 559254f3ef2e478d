-- V9: atomic table-creation operations (contract §2.10). A client-chosen
-- operation id prepares a table definition (with a pre-minted table uuid and
-- a server-chosen write path) that becomes visible only when the operation
-- is published: the table, its files and this receipt land in one snapshot.
-- States: prepared -> committed | rejected (a durable refusal, with reason)
-- | aborted (client_abort, or expired: flipped lazily past expires_at).
-- Rows are kept forever as receipts. `files` holds the published file list
-- (for order-sensitive replay comparison) once committed or rejected.
SET LOCAL lock_timeout = '5s';
CREATE TABLE hog_table_creation (
  catalog_id     bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  operation_id   uuid NOT NULL,
  namespace_id   bigint NOT NULL,
  definition     jsonb NOT NULL,
  table_uuid     uuid NOT NULL,
  write_path     text NOT NULL,
  state          text NOT NULL DEFAULT 'prepared'
                 CHECK (state IN ('prepared', 'committed', 'rejected', 'aborted')),
  created_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at     timestamptz NOT NULL DEFAULT clock_timestamp() + interval '24 hours',
  files          jsonb,
  snapshot_id    bigint,
  schema_version bigint,
  reason         text CHECK (reason IN ('target_exists', 'namespace_changed', 'client_abort',
                                        'expired', 'definition_invalid', 'target_changed')),
  PRIMARY KEY (catalog_id, operation_id),
  UNIQUE (catalog_id, table_uuid),
  CONSTRAINT hog_table_creation_committed_receipt
    CHECK ((state = 'committed') = (snapshot_id IS NOT NULL AND schema_version IS NOT NULL)),
  CONSTRAINT hog_table_creation_reason
    CHECK ((state IN ('rejected', 'aborted')) = (reason IS NOT NULL))
);
