-- Short-lived proofs that work once: an integration's link proof and the provider assertion
-- of a first social sign-in. A row says the proof was used; it can go once the proof itself
-- has expired, because an expired proof is refused before this table is read.
CREATE TABLE spent_proofs (
  proof_key text PRIMARY KEY,
  spent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX spent_proofs_expires_idx ON spent_proofs (expires_at);
