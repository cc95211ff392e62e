-- A member whose death was confirmed by mistake proves they are alive with their password and
-- a link mailed to their address. Only the SHA-256 of the link's token is stored; a link is
-- bound to the case it undoes, works once and expires. Wrong passwords are counted: after a
-- few the link is spent.
CREATE TABLE account_restoration_links (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  case_id uuid NOT NULL REFERENCES death_cases (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  failed_attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX account_restoration_links_user_idx ON account_restoration_links (user_id);
