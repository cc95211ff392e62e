-- User search answers page by page in reading order without sorting every match:
-- * members whose reading starts with the query come first, straight from a btree range
--   over name_reading (C collation: code-point order, the same on PGlite and PostgreSQL);
-- * the other matches follow, read from the grams of the query's rarest gram in reading
--   order. The grams therefore carry the reading, and are indexed in that order.

ALTER TABLE user_search_grams ADD COLUMN reading text COLLATE "C" NOT NULL DEFAULT '';

CREATE OR REPLACE FUNCTION user_search_grams_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_search_grams WHERE user_id = NEW.id;
  IF NEW.status = 'active' AND NEW.searchable AND NEW.name_reading <> '' THEN
    INSERT INTO user_search_grams (gram, user_id, reading)
    SELECT DISTINCT substr(NEW.name_reading, i, width), NEW.id, NEW.name_reading
    FROM generate_series(1, char_length(NEW.name_reading)) AS i,
         (VALUES (1), (2)) AS widths (width)
    WHERE i + width - 1 <= char_length(NEW.name_reading);
  END IF;
  RETURN NULL;
END
$$;

UPDATE user_search_grams g SET reading = u.name_reading FROM users u WHERE u.id = g.user_id;

CREATE INDEX user_search_grams_order_idx ON user_search_grams (gram, reading, user_id);

CREATE INDEX users_search_prefix_idx ON users ((name_reading COLLATE "C"), id)
  WHERE status = 'active' AND searchable;
