-- Every mail the service sends goes through one outbox: the letters' outbox becomes it.
-- A mail is written in the transaction of the change that causes it and sent by the job
-- runner, which retries with a growing wait until the mail is a day old.
ALTER TABLE letter_mail_outbox RENAME TO mail_outbox;
ALTER INDEX letter_mail_outbox_pending_idx RENAME TO mail_outbox_pending_idx;
ALTER TABLE mail_outbox ALTER COLUMN delivery_id DROP NOT NULL;
-- What the mail is about (activation, password_reset, letter, check_in, …): the log, the
-- metrics and the resend offer read it.
ALTER TABLE mail_outbox ADD COLUMN kind text NOT NULL DEFAULT 'letter';
ALTER TABLE mail_outbox ALTER COLUMN kind DROP DEFAULT;
-- The member the mail is for, when it is one (the resend offer looks their mails up).
ALTER TABLE mail_outbox ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE mail_outbox ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE mail_outbox ALTER COLUMN created_at DROP DEFAULT;
CREATE INDEX mail_outbox_user_idx ON mail_outbox (user_id, kind) WHERE user_id IS NOT NULL;
CREATE INDEX mail_outbox_failed_idx ON mail_outbox (failed_at) WHERE failed_at IS NOT NULL;

-- A check-in's answer window starts when its mail is sent, not when it is written.
ALTER TABLE death_check_ins ADD COLUMN mail_id uuid REFERENCES mail_outbox (id) ON DELETE SET NULL;
