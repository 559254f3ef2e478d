-- V2: consumer offsets. Keyed by table_uuid (not table_id) so that a new
-- incarnation of a table is visible to consumers; rows survive drops.
CREATE TABLE hog_consumer_offset (
  catalog_id         bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  consumer_id        text NOT NULL CHECK (length(consumer_id) BETWEEN 1 AND 128),
  table_uuid         uuid NOT NULL,
  committed_snapshot bigint NOT NULL CHECK (committed_snapshot >= 0),
  updated_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (catalog_id, consumer_id, table_uuid)
);
CREATE INDEX hog_consumer_offset_retention_floor ON hog_consumer_offset (catalog_id, committed_snapshot);
