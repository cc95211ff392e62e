-- A version of each page's album and history lists, bumped in the same transaction as every
-- change to them, so that any instance can tell from the page row it reads anyway whether a
-- list answer it made earlier is still current (docs/memorial.md, "Performance").
-- Triggers rather than application code: every writer, cascades included, bumps it.
ALTER TABLE memorial_pages ADD COLUMN lists_version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION bump_memorial_lists_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE memorial_pages SET lists_version = lists_version + 1
  WHERE id IN (SELECT DISTINCT memorial_page_id FROM changed_rows);
  RETURN NULL;
END;
$$;

-- One statement, one bump per page, whatever the number of rows (a reorder updates them all).
-- A trigger with a transition table may name one event only, hence three per table.
CREATE TRIGGER album_photos_inserted AFTER INSERT ON album_photos
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_memorial_lists_version();
CREATE TRIGGER album_photos_updated AFTER UPDATE ON album_photos
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_memorial_lists_version();
CREATE TRIGGER album_photos_deleted AFTER DELETE ON album_photos
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_memorial_lists_version();

CREATE TRIGGER history_entries_inserted AFTER INSERT ON history_entries
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_memorial_lists_version();
CREATE TRIGGER history_entries_updated AFTER UPDATE ON history_entries
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_memorial_lists_version();
CREATE TRIGGER history_entries_deleted AFTER DELETE ON history_entries
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_memorial_lists_version();
