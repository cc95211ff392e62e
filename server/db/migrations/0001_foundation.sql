-- Members and their own memorial pages: the two tables every capability builds on.
-- Ids are random UUIDs so that no id can be guessed from another.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  username text NOT NULL,
  password_hash text,
  last_name text NOT NULL DEFAULT '',
  first_name text NOT NULL DEFAULT '',
  last_name_kana text NOT NULL DEFAULT '',
  first_name_kana text NOT NULL DEFAULT '',
  -- NFKC, katakana folded to hiragana, spaces removed: what user search matches against.
  name_reading text NOT NULL DEFAULT '',
  address text,
  birthdate date,
  sex_code smallint,
  icon_name text,
  status text NOT NULL DEFAULT 'inactive' CHECK (status IN ('inactive', 'active', 'deleted')),
  searchable boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  activated_at timestamptz,
  last_active_at timestamptz
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE status <> 'deleted';

CREATE TABLE memorial_pages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The member this page remembers when it is a member's own page; null for others and pets.
  owner_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  type text NOT NULL CHECK (type IN ('self', 'other', 'pet')),
  last_name text NOT NULL DEFAULT '',
  first_name text NOT NULL DEFAULT '',
  last_name_kana text NOT NULL DEFAULT '',
  first_name_kana text NOT NULL DEFAULT '',
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX memorial_pages_owner_key ON memorial_pages (owner_user_id) WHERE type = 'self';

CREATE TABLE memorial_page_members (
  memorial_page_id uuid NOT NULL REFERENCES memorial_pages (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (memorial_page_id, user_id)
);
CREATE INDEX memorial_page_members_user_idx ON memorial_page_members (user_id);
