-- V5: retirement of dropped tables (server digest §5.4). A dropped table's
-- row is stamped the first time a retirement run finds it eligible (dropped
-- at or below the expiry floor with live data files left). Adding a nullable
-- column without a default is a catalog-only change (no table rewrite).
SET LOCAL lock_timeout = '5s';
ALTER TABLE hog_table ADD COLUMN retirement_eligible_at timestamptz;
