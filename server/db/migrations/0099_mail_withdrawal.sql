-- Mails about a member's death (the suspicion, the grace period, death-triggered letters)
-- name the member they are about; when the case is cancelled or the account restored, those
-- not sent yet are withdrawn: the sender skips them and they stay for the record.
ALTER TABLE mail_outbox ADD COLUMN about_user_id uuid REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE mail_outbox ADD COLUMN withdrawn_at timestamptz;
CREATE INDEX mail_outbox_about_idx ON mail_outbox (about_user_id)
  WHERE about_user_id IS NOT NULL AND sent_at IS NULL AND withdrawn_at IS NULL;
