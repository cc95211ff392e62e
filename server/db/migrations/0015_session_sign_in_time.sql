-- When the sign-in that started a refresh-token family happened. Every token of the family
-- carries it, so a rotation knows the session's absolute age (sessions end 90 days after the
-- sign-in however often they refresh) and the access tokens it mints keep the sign-in time.
ALTER TABLE refresh_tokens ADD COLUMN signed_in_at timestamptz;
UPDATE refresh_tokens AS token
  SET signed_in_at = (SELECT min(family.created_at) FROM refresh_tokens AS family
                      WHERE family.family_id = token.family_id);
ALTER TABLE refresh_tokens ALTER COLUMN signed_in_at SET NOT NULL;
