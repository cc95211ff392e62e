-- Memorial pages: the profile, privacy, album, history, mourning (記帳 and 献花) and the
-- share tokens that invite people to a page. Lists are read per page in display order, so
-- every child table is indexed on (memorial_page_id, its order).

ALTER TABLE memorial_pages
  ADD COLUMN photo_name text,
  ADD COLUMN birth_date date,
  ADD COLUMN death_date date,
  ADD COLUMN animal_kind text,
  -- public: anyone; link: signed-in members who know the page's (unguessable) id;
  -- connections: the page's members and the connections of any of its admins; admins: admins only.
  ADD COLUMN privacy text NOT NULL DEFAULT 'connections'
    CHECK (privacy IN ('public', 'link', 'connections', 'admins')),
  ADD COLUMN searchable boolean NOT NULL DEFAULT true,
  ADD CONSTRAINT memorial_pages_death_after_birth CHECK (death_date IS NULL OR birth_date IS NULL OR death_date >= birth_date);
-- Anniversary sweeps look pages up by date of death.
CREATE INDEX memorial_pages_death_date_idx ON memorial_pages (death_date) WHERE death_date IS NOT NULL;
CREATE INDEX memorial_page_members_admins_idx ON memorial_page_members (memorial_page_id) WHERE role = 'admin';

CREATE TABLE album_photos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_page_id uuid NOT NULL REFERENCES memorial_pages (id) ON DELETE CASCADE,
  image_name text NOT NULL,
  thumbnail_name text NOT NULL,
  content_type text NOT NULL,
  byte_size integer NOT NULL,
  thumbnail_bytes integer NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  caption text NOT NULL DEFAULT '',
  taken_on date,
  position integer NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX album_photos_page_position_idx ON album_photos (memorial_page_id, position, created_at);
-- One object backs at most one photo, so deleting a photo may delete its files.
CREATE UNIQUE INDEX album_photos_image_key ON album_photos (image_name);

CREATE TABLE history_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_page_id uuid NOT NULL REFERENCES memorial_pages (id) ON DELETE CASCADE,
  occurred_on date NOT NULL,
  body text NOT NULL,
  image_name text,
  thumbnail_name text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX history_entries_page_date_idx ON history_entries (memorial_page_id, occurred_on, created_at);

CREATE TABLE condolences (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_page_id uuid NOT NULL REFERENCES memorial_pages (id) ON DELETE CASCADE,
  author_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  body text NOT NULL,
  -- Nobody but the page's admins and the author sees a message until an admin approves it.
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'hidden')),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX condolences_page_idx ON condolences (memorial_page_id, created_at);

-- One flower per member, page and day (Asia/Tokyo); the count is the number of rows.
CREATE TABLE flower_offerings (
  memorial_page_id uuid NOT NULL REFERENCES memorial_pages (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  offered_on date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (memorial_page_id, user_id, offered_on)
);

CREATE TABLE share_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- sha256 of the token: a database leak does not hand out working invitations.
  token_hash text NOT NULL UNIQUE,
  memorial_page_id uuid NOT NULL REFERENCES memorial_pages (id) ON DELETE CASCADE,
  inviting_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  set_admin boolean NOT NULL DEFAULT false,
  expires_at timestamptz NOT NULL,
  -- The member who accepted it (connected to the inviter); a token serves one invitee.
  redeemed_by uuid REFERENCES users (id) ON DELETE SET NULL,
  expired_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
