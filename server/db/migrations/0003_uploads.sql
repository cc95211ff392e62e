-- Every uploaded object: who uploaded it and what uses it. A signed PUT URL creates the row;
-- the one PUT it allows fills in what the server detected; the thing that uses the upload
-- (an album photo, a history entry, a page photo, a letter, a member's icon) claims it, and
-- only that use can delete it. Rows that nothing claimed within a day are swept with their
-- files. Rows made from what already used an object keep a null content_type: the bytes are
-- sniffed again whenever they are served.

CREATE TABLE uploads (
  object_name text PRIMARY KEY,
  -- null: uploaded without an account (the registration icon) until registration claims it.
  owner_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  -- The largest body the PUT may carry (smaller for uploads without an account).
  max_bytes integer NOT NULL,
  signed_at timestamptz NOT NULL,
  -- Set by the one PUT the URL allows, before its bytes are checked.
  put_at timestamptz,
  -- What the server detected and stored; null until a PUT passed the checks.
  content_type text CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif')),
  byte_size integer,
  width integer,
  height integer,
  thumbnail_name text UNIQUE,
  thumbnail_bytes integer,
  use_kind text CHECK (use_kind IN ('album_photo', 'history_photo', 'page_photo', 'letter_photo', 'member_icon')),
  -- The album photo, history entry, memorial page, letter or member that uses the upload.
  use_id uuid,
  CHECK ((use_kind IS NULL) = (use_id IS NULL))
);
CREATE INDEX uploads_unclaimed_idx ON uploads (signed_at) WHERE use_kind IS NULL;
CREATE INDEX uploads_use_idx ON uploads (use_kind, use_id);

-- Objects stored before uploads were recorded get their row from what uses them (the first
-- use wins where one object was named twice). On a new database these tables come later.
DO $$
BEGIN
  IF to_regclass('album_photos') IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO uploads (object_name, owner_user_id, max_bytes, signed_at, put_at, content_type, use_kind, use_id)
    SELECT icon_name, id, 0, created_at, created_at, NULL, 'member_icon', id
    FROM users WHERE icon_name IS NOT NULL
    ON CONFLICT DO NOTHING;
  INSERT INTO uploads (object_name, owner_user_id, max_bytes, signed_at, put_at, content_type, use_kind, use_id)
    SELECT DISTINCT ON (name) name, sender_user_id, 0, created_at, created_at, NULL, 'letter_photo', id
    FROM time_capsule_letters, unnest(photo_names) AS name
    ON CONFLICT DO NOTHING;
  INSERT INTO uploads (object_name, owner_user_id, max_bytes, signed_at, put_at, content_type, thumbnail_name, use_kind, use_id)
    SELECT photo_name, coalesce(owner_user_id, created_by), 0, created_at, created_at, NULL,
      'thumbs/' || regexp_replace(substr(photo_name, 9), '\.[a-z0-9]+$', '') || '.webp', 'page_photo', id
    FROM memorial_pages WHERE photo_name IS NOT NULL
    ON CONFLICT DO NOTHING;
  INSERT INTO uploads (object_name, owner_user_id, max_bytes, signed_at, put_at, content_type, byte_size, width, height, thumbnail_name, thumbnail_bytes, use_kind, use_id)
    SELECT image_name, created_by, 0, created_at, created_at, content_type, byte_size, width, height, thumbnail_name, thumbnail_bytes, 'album_photo', id
    FROM album_photos
    ON CONFLICT DO NOTHING;
  INSERT INTO uploads (object_name, owner_user_id, max_bytes, signed_at, put_at, content_type, thumbnail_name, use_kind, use_id)
    SELECT image_name, created_by, 0, created_at, created_at, NULL, thumbnail_name, 'history_photo', id
    FROM history_entries WHERE image_name IS NOT NULL
    ON CONFLICT DO NOTHING;
END
$$;
