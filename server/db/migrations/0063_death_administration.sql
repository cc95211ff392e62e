-- An administrator accepts being named: the member's settings show who has accepted, and a
-- member who is named again keeps an earlier acceptance (the row is replaced, the moment kept).
ALTER TABLE death_administrators ADD COLUMN accepted_at timestamptz;
