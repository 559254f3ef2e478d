-- V6: the deferred-stats hydrator's claims (server digest §7). A run claims
-- pending files by stamping its run token and a lease expiry; it reads the
-- footers outside any transaction and settles each file guarded by its own
-- token, so two servers never hydrate the same file at once and a crashed
-- run's claims lapse with their lease. Nullable columns without a default:
-- catalog-only changes (no table rewrite).
SET LOCAL lock_timeout = '5s';
ALTER TABLE hog_data_file ADD COLUMN stats_claimed_by text,
                          ADD COLUMN stats_claim_expires_at timestamptz;
