-- Every mailed link works once. An unlock link is spent by the sign-in it lets past the lock.
ALTER TABLE unlock_links ADD COLUMN used_at timestamptz;

-- Each notice of a sensitive change, with its "this was not me" link (only the SHA-256 of
-- the token is stored). `id` orders a member's changes: a report is taken only while its
-- change is still the member's latest. `used_at` spends the link.
CREATE TABLE change_notices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  change text NOT NULL,
  -- For an e-mail change: the address a report puts back.
  restore_email text,
  changed_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX change_notices_user_idx ON change_notices (user_id, id);
