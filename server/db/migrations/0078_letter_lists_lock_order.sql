-- The letter-list bumps lock their members' rows in id order before they bump them. Each bump
-- took its rows in the order of its own plan, so two deliveries to the same writer and reader
-- at once could each hold one of the two rows and wait for the other (a deadlock, 40P01).
-- FOR NO KEY UPDATE is the lock the bump's own UPDATE takes: it does not wait for the key-share
-- locks that the foreign-key checks of the same deliveries hold on those rows.
CREATE OR REPLACE FUNCTION bump_letter_lists() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'time_capsule_letters' THEN
    WITH affected AS (
      SELECT sender_user_id AS id FROM changed_rows
      UNION
      SELECT user_id FROM time_capsule_letter_admins
      WHERE letter_id IN (SELECT id FROM changed_rows)
      UNION
      SELECT recipient_user_id FROM letter_deliveries
      WHERE letter_id IN (SELECT id FROM changed_rows)
    ), locked AS (
      SELECT id FROM users WHERE id IN (SELECT id FROM affected) ORDER BY id FOR NO KEY UPDATE
    )
    UPDATE users SET letters_version = letters_version + 1 WHERE id IN (SELECT id FROM locked);
  ELSE
    -- Everyone whose lists show the rows' letters, and the row's own member, who is no longer
    -- found through the letter once the row is gone.
    WITH affected AS (
      SELECT sender_user_id AS id FROM time_capsule_letters
      WHERE id IN (SELECT letter_id FROM changed_rows)
      UNION
      SELECT user_id FROM time_capsule_letter_admins
      WHERE letter_id IN (SELECT letter_id FROM changed_rows)
      UNION
      SELECT recipient_user_id FROM letter_deliveries
      WHERE letter_id IN (SELECT letter_id FROM changed_rows)
      UNION
      SELECT (to_jsonb(changed) ->> 'user_id')::uuid FROM changed_rows AS changed
      WHERE TG_TABLE_NAME = 'time_capsule_letter_admins'
      UNION
      SELECT (to_jsonb(changed) ->> 'recipient_user_id')::uuid FROM changed_rows AS changed
      WHERE TG_TABLE_NAME = 'letter_deliveries'
    ), locked AS (
      SELECT id FROM users WHERE id IN (SELECT id FROM affected) ORDER BY id FOR NO KEY UPDATE
    )
    UPDATE users SET letters_version = letters_version + 1 WHERE id IN (SELECT id FROM locked);
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION bump_letter_lists_of_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH letters AS (
    SELECT id FROM time_capsule_letters WHERE sender_user_id = NEW.id
    UNION
    SELECT letter_id FROM time_capsule_letter_recipients WHERE user_id = NEW.id
    UNION
    SELECT letter_id FROM time_capsule_letter_admins WHERE user_id = NEW.id
  ), affected AS (
    SELECT sender_user_id AS id FROM time_capsule_letters WHERE id IN (SELECT id FROM letters)
    UNION
    SELECT user_id FROM time_capsule_letter_admins WHERE letter_id IN (SELECT id FROM letters)
    UNION
    SELECT recipient_user_id FROM letter_deliveries WHERE letter_id IN (SELECT id FROM letters)
  ), locked AS (
    SELECT id FROM users WHERE id IN (SELECT id FROM affected) ORDER BY id FOR NO KEY UPDATE
  )
  UPDATE users SET letters_version = letters_version + 1 WHERE id IN (SELECT id FROM locked);
  RETURN NULL;
END;
$$;
