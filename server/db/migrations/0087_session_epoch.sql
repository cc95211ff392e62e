-- Every access token names the session epoch of its member at issue; ending every session of
-- the member (password change or reset, a change report, deletion, sign-out everywhere) adds
-- one, and from then on the server refuses the tokens issued before.
ALTER TABLE users ADD COLUMN session_epoch integer NOT NULL DEFAULT 0;
