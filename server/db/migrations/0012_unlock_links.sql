-- Links mailed to a member whose account is locked after repeated failed sign-ins: a
-- sign-in that carries one is not held back by the lock. Only the SHA-256 of the token is
-- stored; a link works until the lock's window closes.
CREATE TABLE unlock_links (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX unlock_links_user_idx ON unlock_links (user_id);
