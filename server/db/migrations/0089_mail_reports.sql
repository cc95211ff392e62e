-- "Report this mail" from a mail a member's letter caused (docs/timecapsule.md): one row per
-- mail however often its link is used, kept when the mail itself is cleared from the outbox.
CREATE TABLE mail_reports (
  mail_id uuid PRIMARY KEY,
  kind text NOT NULL,
  sender_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  letter_id uuid,
  to_email text NOT NULL,
  reported_at timestamptz NOT NULL
);
CREATE INDEX mail_reports_sender ON mail_reports (sender_user_id, reported_at);
-- The hash of the token in a letter mail's report link (the token itself is only in the mail).
ALTER TABLE mail_outbox ADD COLUMN report_token_hash text UNIQUE;
