-- Accounts: what registration records beyond the users row, single-use mailed links,
-- refresh tokens (stored hashed, rotated, grouped in families), login throttling and the
-- identities members sign in with at social-login providers.

ALTER TABLE users
  -- The pet page a registration in pet mode will administer (read by the memorial area).
  ADD COLUMN registration_admin_pet_id text,
  -- The partner a registration through the inflow variant came from.
  ADD COLUMN inflow_id text,
  ADD COLUMN deleted_at timestamptz;

-- Activation and password-reset links: only the SHA-256 of the token is stored.
CREATE TABLE account_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('activation', 'password_reset')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX account_tokens_user_idx ON account_tokens (user_id, purpose);

-- Each sign-in starts a family; every refresh spends one token and adds its successor.
-- Presenting a spent token again revokes the whole family.
CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  family_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  spent_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

-- Fixed-window counters for login throttling, used when REDIS_URL is not set. `key` joins
-- the counter kind with the client and, for per-identifier counters, the submitted email;
-- `identifier` lets a password reset lift every lock on that email at once.
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  identifier text,
  count integer NOT NULL,
  resets_at timestamptz NOT NULL
);
CREATE INDEX login_throttle_identifier_idx ON login_throttle (identifier);

-- A member's identity at a social-login provider, as the provider itself asserted it.
CREATE TABLE external_identities (
  provider text NOT NULL,
  provider_user_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, provider_user_id)
);
CREATE INDEX external_identities_user_idx ON external_identities (user_id);
