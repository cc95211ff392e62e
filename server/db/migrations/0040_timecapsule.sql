-- Time-capsule letters (タイムカプセル): written now, delivered later to members and to people
-- not yet members. Exactly-once delivery rests on the UNIQUE (letter_id, recipient_id) of
-- letter_deliveries, written in the same transaction that claims the letter.

CREATE TABLE time_capsule_letters (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sender_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title text NOT NULL,
  body text NOT NULL,
  -- Object names of uploaded photos (server-chosen, see server/storage/objectStore.ts).
  photo_names text[] NOT NULL DEFAULT '{}',
  -- 'date': at send_at. 'death': delay_days after the writer's confirmed death.
  -- 'death_anniversary': anniversary_years after the death (七回忌 = 6).
  -- 'date_after_death': on after_death_date, once the death is confirmed.
  rule text NOT NULL CHECK (rule IN ('date', 'death', 'death_anniversary', 'date_after_death')),
  send_at timestamptz,
  delay_days integer CHECK (delay_days BETWEEN 0 AND 36500),
  anniversary_years integer CHECK (anniversary_years BETWEEN 1 AND 100),
  after_death_date date,
  CHECK ((rule = 'date') = (send_at IS NOT NULL)),
  CHECK ((rule = 'death') = (delay_days IS NOT NULL)),
  CHECK ((rule = 'death_anniversary') = (anniversary_years IS NOT NULL)),
  CHECK ((rule = 'date_after_death') = (after_death_date IS NOT NULL)),
  -- When the letter becomes due: send_at for dated letters, set by the death release for the
  -- others; null while the writer is alive.
  due_at timestamptz,
  -- Set in the transaction that writes every recipient's delivery; a delivered letter never changes.
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX time_capsule_letters_sender_idx ON time_capsule_letters (sender_user_id);
-- What the delivery loop scans: only letters still waiting, by due time.
CREATE INDEX time_capsule_letters_due_idx ON time_capsule_letters (due_at)
  WHERE delivered_at IS NULL AND due_at IS NOT NULL;

CREATE TABLE time_capsule_letter_recipients (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  letter_id uuid NOT NULL REFERENCES time_capsule_letters (id) ON DELETE CASCADE,
  position smallint NOT NULL,
  -- A member (a connection of the writer) ...
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  -- ... or someone not yet a member, reached by email.
  last_name text,
  first_name text,
  email text,
  CHECK ((user_id IS NOT NULL) <> (email IS NOT NULL)),
  UNIQUE (letter_id, position)
);
CREATE INDEX time_capsule_letter_recipients_letter_idx ON time_capsule_letter_recipients (letter_id);

-- Connections the writer names to manage delivery after death: they see the envelope only.
CREATE TABLE time_capsule_letter_admins (
  letter_id uuid NOT NULL REFERENCES time_capsule_letters (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  position smallint NOT NULL,
  PRIMARY KEY (letter_id, user_id)
);
CREATE INDEX time_capsule_letter_admins_user_idx ON time_capsule_letter_admins (user_id);

CREATE TABLE letter_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  letter_id uuid NOT NULL REFERENCES time_capsule_letters (id) ON DELETE CASCADE,
  recipient_id uuid NOT NULL REFERENCES time_capsule_letter_recipients (id) ON DELETE CASCADE,
  -- The member who reads it: the member recipient, or whoever claimed a non-member's link.
  recipient_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  -- sha256 of the claim token mailed to a non-member; binds the delivery to the member with
  -- that email who opens the link (and keeps working for them).
  claim_token_hash text UNIQUE,
  delivered_at timestamptz NOT NULL,
  -- Delivered more than LATE_AFTER_MINUTES after due_at (server down, backlog).
  late boolean NOT NULL,
  opened_at timestamptz,
  -- The constraint that makes a second delivery of a letter to a recipient impossible.
  UNIQUE (letter_id, recipient_id)
);
CREATE INDEX letter_deliveries_recipient_user_idx ON letter_deliveries (recipient_user_id);

-- Mails the delivery transaction decided to send; a second loop sends them and retries.
CREATE TABLE letter_mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  delivery_id uuid NOT NULL UNIQUE REFERENCES letter_deliveries (id) ON DELETE CASCADE,
  to_email text NOT NULL,
  subject text NOT NULL,
  -- Cleared once sent: a non-member's link carries a claim token.
  text text,
  link text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  sent_at timestamptz,
  failed_at timestamptz
);
CREATE INDEX letter_mail_outbox_pending_idx ON letter_mail_outbox (next_attempt_at)
  WHERE sent_at IS NULL AND failed_at IS NULL;
