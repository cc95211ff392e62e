-- Death detection: the administrators a member chose, identity certificates registered
-- through the mobile app, suspicion cases with their signals and confirmations, the audit
-- log, external-integration links, inactivity check-ins and push device tokens.
-- users.death_confirmed_at (0030) is set when a case is released.

-- The mourning view of a member's own page: set when their death is released.
ALTER TABLE memorial_pages ADD COLUMN mourning_since timestamptz;

CREATE TABLE death_settings (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  rule text NOT NULL DEFAULT 'any_one' CHECK (rule IN ('any_one', 'two')),
  -- Null: no inactivity check-ins.
  check_in_period_days integer CHECK (check_in_period_days BETWEEN 30 AND 1095),
  -- The last proof of life death detection itself saw (settings saved, check-in answered,
  -- suspicion cancelled); the sweep also reads users.last_active_at and refresh tokens.
  alive_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX death_settings_check_in_idx ON death_settings (user_id) WHERE check_in_period_days IS NOT NULL;

CREATE TABLE death_administrators (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  administrator_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, administrator_user_id),
  CHECK (user_id <> administrator_user_id)
);
CREATE INDEX death_administrators_administrator_idx ON death_administrators (administrator_user_id);

-- One row per member: the current certificate and the verification status.
CREATE TABLE identity_verifications (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('INITIAL', 'PROGRESS', 'ACTIVE', 'REVOKED')),
  -- PROGRESS lasts until this time; after it the status reads as INITIAL or REVOKED.
  progress_until timestamptz,
  certificate_pem text,
  fingerprint text,
  serial_number text,
  subject_email text,
  not_after timestamptz,
  revoked_reason text CHECK (revoked_reason IN ('expired', 'revoked')),
  revoked_at timestamptz,
  verified_at timestamptz,
  updated_at timestamptz NOT NULL,
  CHECK (status <> 'ACTIVE' OR (certificate_pem IS NOT NULL AND revoked_reason IS NULL))
);
CREATE INDEX identity_verifications_active_idx ON identity_verifications (not_after) WHERE status = 'ACTIVE';

-- Server-issued texts the app signs: a registration challenge, or a death confirmation's
-- signContent (its signTag is the id). Single use, short-lived.
CREATE TABLE identity_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('registration', 'death_confirmation')),
  content text NOT NULL,
  subject_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  date_of_death date,
  relationship text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX identity_challenges_user_idx ON identity_challenges (user_id, created_at);

CREATE TABLE death_cases (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  state text NOT NULL CHECK (state IN ('suspected', 'grace', 'released', 'cancelled')),
  opened_at timestamptz NOT NULL,
  grace_ends_at timestamptz,
  released_at timestamptz,
  closed_at timestamptz,
  -- 'sign_in' or 'cancel' for a cancelled case.
  closed_by text,
  date_of_death date
);
-- At most one case that is not cancelled per member.
CREATE UNIQUE INDEX death_cases_open_key ON death_cases (user_id) WHERE state <> 'cancelled';
CREATE INDEX death_cases_grace_idx ON death_cases (grace_ends_at) WHERE state = 'grace';

CREATE TABLE death_signals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  case_id uuid NOT NULL REFERENCES death_cases (id) ON DELETE CASCADE,
  source text NOT NULL CHECK (source IN ('certificate', 'integration', 'administrator', 'inactivity')),
  reporter_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  client_id text,
  detail jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX death_signals_case_idx ON death_signals (case_id);

CREATE TABLE death_confirmations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  case_id uuid NOT NULL REFERENCES death_cases (id) ON DELETE CASCADE,
  administrator_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  date_of_death date NOT NULL,
  relationship text NOT NULL,
  sign_tag uuid NOT NULL,
  sign_content text NOT NULL,
  signature text NOT NULL,
  certificate_fingerprint text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (case_id, administrator_user_id)
);

CREATE TABLE death_audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Steps recorded in the same instant keep the order they were written in.
  seq bigserial NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  case_id uuid REFERENCES death_cases (id) ON DELETE SET NULL,
  action text NOT NULL,
  actor_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  source text,
  detail jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX death_audit_log_user_idx ON death_audit_log (user_id, seq);

-- A member known to an external integration (FPOS) under its own id, with their consent.
CREATE TABLE fpos_links (
  client_id text NOT NULL,
  fpos_user_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (client_id, fpos_user_id),
  UNIQUE (client_id, user_id)
);

-- Inactivity check-in mails: only the SHA-256 of the link's token is stored.
CREATE TABLE death_check_ins (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  sent_at timestamptz NOT NULL,
  answer_by timestamptz NOT NULL,
  answered_at timestamptz,
  escalated_at timestamptz
);
CREATE UNIQUE INDEX death_check_ins_open_key ON death_check_ins (user_id) WHERE answered_at IS NULL AND escalated_at IS NULL;
CREATE INDEX death_check_ins_due_idx ON death_check_ins (answer_by) WHERE answered_at IS NULL AND escalated_at IS NULL;

CREATE TABLE device_tokens (
  token text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  platform text NOT NULL CHECK (platform IN ('ios', 'android')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX device_tokens_user_idx ON device_tokens (user_id);
