-- V3: views, one versioned table (no identity split). view_uuid is new on
-- every (re)creation; the SQL text is stored verbatim and never parsed.
CREATE TABLE hog_view (
  catalog_id     bigint NOT NULL REFERENCES hog_catalog ON DELETE CASCADE,
  view_id        bigint NOT NULL,
  view_uuid      uuid NOT NULL,
  namespace_id   bigint NOT NULL,
  name           text NOT NULL CHECK (name ~ '^[A-Za-z_][A-Za-z0-9_-]{0,127}$'),
  dialect        text NOT NULL DEFAULT 'trino',
  sql            text NOT NULL,
  begin_snapshot bigint NOT NULL,
  end_snapshot   bigint,
  PRIMARY KEY (catalog_id, view_id),
  FOREIGN KEY (catalog_id, namespace_id) REFERENCES hog_namespace DEFERRABLE INITIALLY DEFERRED,
  CHECK (end_snapshot IS NULL OR end_snapshot > begin_snapshot)
);
CREATE UNIQUE INDEX hog_view_live_name ON hog_view (catalog_id, namespace_id, name) WHERE end_snapshot IS NULL;
CREATE INDEX hog_view_namespace ON hog_view (catalog_id, namespace_id);
