-- A keepsake of a memorial page (docs/keepsake.md) is an archive the data-export job builds
-- too: its row names the page, and its user is the admin who asked. One unfinished archive per
-- member and subject (their own data, or one page) at a time.
ALTER TABLE data_exports
  ADD COLUMN memorial_page_id uuid REFERENCES memorial_pages (id) ON DELETE CASCADE;
DROP INDEX data_exports_one_open_idx;
CREATE UNIQUE INDEX data_exports_one_open_idx
  ON data_exports (user_id, coalesce(memorial_page_id, '00000000-0000-0000-0000-000000000000'::uuid))
  WHERE status IN ('requested', 'building');
CREATE INDEX data_exports_page_idx ON data_exports (memorial_page_id, created_at)
  WHERE memorial_page_id IS NOT NULL;
