-- User search, notifications and the connection-request lookups of the social area.

-- User search: every 1- and 2-character piece ("gram") of a member's name_reading, kept only
-- for members who are active and searchable. A search for q finds the members who hold every
-- gram of q (a btree lookup per gram), then checks that q really occurs in name_reading. This
-- works the same on PGlite and PostgreSQL, where pg_trgm is weak on 1-2 character CJK
-- queries and pg_bigm does not exist.
CREATE TABLE user_search_grams (
  gram text COLLATE "C" NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (gram, user_id)
);
CREATE INDEX user_search_grams_user_idx ON user_search_grams (user_id);

-- The grams follow name_reading, status and searchable through a trigger, so that whoever
-- writes a member (registration, my page, account deletion) keeps search right without
-- knowing about this table. name_reading itself is computed by the application
-- (src/contract/rules/nameReading.ts), the one place that normalises names.
CREATE FUNCTION user_search_grams_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_search_grams WHERE user_id = NEW.id;
  IF NEW.status = 'active' AND NEW.searchable AND NEW.name_reading <> '' THEN
    INSERT INTO user_search_grams (gram, user_id)
    SELECT DISTINCT substr(NEW.name_reading, i, width), NEW.id
    FROM generate_series(1, char_length(NEW.name_reading)) AS i,
         (VALUES (1), (2)) AS widths (width)
    WHERE i + width - 1 <= char_length(NEW.name_reading);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_search_grams_insert AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION user_search_grams_refresh();
CREATE TRIGGER users_search_grams_update AFTER UPDATE OF name_reading, status, searchable ON users
  FOR EACH ROW
  WHEN (OLD.name_reading IS DISTINCT FROM NEW.name_reading
        OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.searchable IS DISTINCT FROM NEW.searchable)
  EXECUTE FUNCTION user_search_grams_refresh();

-- Members written before this migration.
INSERT INTO user_search_grams (gram, user_id)
SELECT DISTINCT substr(u.name_reading, i, width), u.id
FROM users u,
     generate_series(1, char_length(u.name_reading)) AS i,
     (VALUES (1), (2)) AS widths (width)
WHERE u.status = 'active' AND u.searchable AND i + width - 1 <= char_length(u.name_reading);

-- Notifications (お知らせ). `kind` is checked by the application (server/domain/social/
-- notifications.ts) so that other areas can add kinds without a migration here; `payload`
-- holds what the screen needs to word and link the notification.
CREATE TABLE notifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  read_at timestamptz
);
-- The list, newest first.
CREATE INDEX notifications_user_created_idx ON notifications (user_id, created_at DESC, id DESC);
-- The unread count the header polls: a count over this partial index, no join.
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

-- Requests received and sent, as the connection screen lists them.
CREATE INDEX connection_requests_to_idx ON connection_requests (to_user_id) WHERE status = 'pending';
CREATE INDEX connection_requests_from_idx ON connection_requests (from_user_id) WHERE status = 'pending';
