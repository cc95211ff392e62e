-- What the member chose for after their death (docs/after-death.md): their own memorial page
-- (mourning view, unchanged or hidden), their account (kept as a memorial, or deleted a chosen
-- number of days after the release) and the administrator who receives their archive. The
-- defaults are what a release did before anyone could choose.
ALTER TABLE death_settings
  ADD COLUMN page_after_death text NOT NULL DEFAULT 'mourning'
    CHECK (page_after_death IN ('mourning', 'unchanged', 'hidden')),
  ADD COLUMN account_after_death text NOT NULL DEFAULT 'memorial'
    CHECK (account_after_death IN ('memorial', 'delete')),
  ADD COLUMN delete_after_days integer CHECK (delete_after_days BETWEEN 30 AND 365),
  ADD COLUMN archive_recipient_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  ADD CHECK ((account_after_death = 'delete') = (delete_after_days IS NOT NULL));

-- A released case whose member chose deletion waits for its day; a restoration before it
-- empties the day, the sweep that deletes sets account_deleted_at.
ALTER TABLE death_cases
  ADD COLUMN account_deletion_due_at timestamptz,
  ADD COLUMN account_deleted_at timestamptz;
CREATE INDEX death_cases_deletion_due_idx ON death_cases (account_deletion_due_at)
  WHERE account_deletion_due_at IS NOT NULL AND account_deleted_at IS NULL;

-- The archive an administrator receives at a release: its user is the administrator (who
-- downloads it), its subject the member whose data it holds. downloaded_at: the first download,
-- which no restoration can take back.
ALTER TABLE data_exports
  ADD COLUMN subject_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  ADD COLUMN downloaded_at timestamptz;
DROP INDEX data_exports_one_open_idx;
CREATE UNIQUE INDEX data_exports_one_open_idx
  ON data_exports (
    user_id,
    coalesce(memorial_page_id, '00000000-0000-0000-0000-000000000000'::uuid),
    coalesce(subject_user_id, '00000000-0000-0000-0000-000000000000'::uuid))
  WHERE status IN ('requested', 'building');
CREATE INDEX data_exports_subject_idx ON data_exports (subject_user_id)
  WHERE subject_user_id IS NOT NULL;
