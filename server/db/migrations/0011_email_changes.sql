-- E-mail changes waiting for the new address to be confirmed. The new address lives here,
-- not in users, until its single-use link is opened; only the SHA-256 of the token is kept.
CREATE TABLE email_changes (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  new_email text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_changes_user_idx ON email_changes (user_id) WHERE used_at IS NULL;
