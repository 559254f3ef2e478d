-- V10: snapshot expiry deletes a range's change rows itself. The cascading
-- foreign key hog_snapshot_change → hog_snapshot fired one RI trigger (one
-- single-row DELETE) per expired snapshot under the commit lock; expiry now
-- issues one range DELETE on hog_snapshot_change (index
-- hog_snapshot_change_by_snapshot) before the range DELETE on hog_snapshot.
-- Change rows still go with their catalog (cascade from hog_catalog, one
-- trigger per catalog deleted). Commits insert a snapshot and its change row
-- in the same transaction, so no orphan can be written.
ALTER TABLE hog_snapshot_change DROP CONSTRAINT hog_snapshot_change_catalog_id_snapshot_id_fkey;
ALTER TABLE hog_snapshot_change
  ADD CONSTRAINT hog_snapshot_change_catalog_fkey
  FOREIGN KEY (catalog_id) REFERENCES hog_catalog ON DELETE CASCADE;
