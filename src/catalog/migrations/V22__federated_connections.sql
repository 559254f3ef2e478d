-- The query service's federated connections (src/query/federated_connections.h).
--
-- hog_federated_connection: an external database registered with POST
-- /v1/connections (source_type 'postgres'); id = name, the catalog its
-- tables have in SQL. The password is kept only sealed (AES-256-GCM under
-- the server's secret key, the id authenticated with it): secret_sealed.
-- discovery_status is the last discovery's outcome; its error is kept.
CREATE TABLE hog_federated_connection (
  id text PRIMARY KEY,
  source_type text NOT NULL CHECK (source_type IN ('postgres')),
  host text NOT NULL,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  user_name text NOT NULL,
  database_name text NOT NULL,
  secret_sealed bytea,
  discovery_status text NOT NULL CHECK (discovery_status IN ('success', 'failed')),
  discovery_error text,
  discovered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- hog_federated_column: the last discovery's listing, one row per column of
-- each table (ordinal from 1), data_type the source's own type name.
CREATE TABLE hog_federated_column (
  connection_id text NOT NULL REFERENCES hog_federated_connection (id) ON DELETE CASCADE,
  schema_name text NOT NULL,
  table_name text NOT NULL,
  ordinal integer NOT NULL CHECK (ordinal >= 1),
  column_name text NOT NULL,
  data_type text NOT NULL,
  nullable boolean NOT NULL,
  PRIMARY KEY (connection_id, schema_name, table_name, ordinal)
);
