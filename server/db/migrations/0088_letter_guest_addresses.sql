-- Every address outside the membership a member has given a letter to, and when first: a
-- member may reach only a few new ones a day (LETTER_NEW_GUEST_ADDRESSES_PER_DAY), so letters
-- cannot relay Shinobu's mail to lists of strangers. Kept after the letter is gone, so that
-- deleting and rewriting a letter does not free the day's allowance.
CREATE TABLE letter_guest_addresses (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email text NOT NULL,
  first_used_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, email)
);
CREATE INDEX letter_guest_addresses_recent ON letter_guest_addresses (user_id, first_used_at);
