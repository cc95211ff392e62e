-- A member who signs in only with a provider (LINE) proves they are alive by signing in with
-- it again from the mailed restoration link: the link records when, and the proof holds for
-- a short while, in which the restoration needs no password.
ALTER TABLE account_restoration_links ADD COLUMN proven_at timestamptz;
