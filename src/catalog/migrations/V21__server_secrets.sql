-- hog_server_secret: keys every server on this catalog database shares,
-- made by whichever starts first (src/query/server_secrets.h). The query
-- service signs its presigned upload URLs with 'upload_signing', so a part
-- PUT is accepted by any replica, not only the one that minted the URL.
CREATE TABLE hog_server_secret (
  name text PRIMARY KEY,
  value_hex text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
