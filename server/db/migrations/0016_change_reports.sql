-- A member's "this was not me" about a sensitive change, sent from the link in the mail that
-- told them of it. Every session of the member was ended when it was recorded; operators
-- read this table to follow up.
CREATE TABLE change_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  change text NOT NULL,
  changed_at timestamptz NOT NULL,
  reported_at timestamptz NOT NULL
);
CREATE INDEX change_reports_user_idx ON change_reports (user_id);
