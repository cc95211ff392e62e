-- A version of each member's three letter lists (waiting, managed, received), bumped in the same
-- transaction as every change that shows in any of them, so that a list read can answer
-- 304 Not Modified from the member's row alone (docs/timecapsule.md, "List reads").
-- A list shows its letters' titles and dates and the names of their writer, recipients and
-- admins: a change to a letter, its recipients, admins or deliveries bumps everyone whose list
-- shows it, and a changed name bumps everyone whose list shows that name.
-- Triggers rather than application code: every writer, cascades included, bumps it.
ALTER TABLE users ADD COLUMN letters_version bigint NOT NULL DEFAULT 0;

-- For the letters, recipients, admins and deliveries tables: everyone whose lists show the
-- changed rows' letters (the writer, the admins, the members it was delivered to), and the
-- row's own member, who is no longer found through the letter once the row is gone. Each
-- branch joins the transition table (no array of ids: a batch of many letters stays a
-- semi-join).
CREATE FUNCTION bump_letter_lists() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'time_capsule_letters' THEN
    UPDATE users SET letters_version = letters_version + 1
    WHERE id IN (
      SELECT sender_user_id FROM changed_rows
      UNION
      SELECT user_id FROM time_capsule_letter_admins
      WHERE letter_id IN (SELECT id FROM changed_rows)
      UNION
      SELECT recipient_user_id FROM letter_deliveries
      WHERE letter_id IN (SELECT id FROM changed_rows));
  ELSE
    UPDATE users SET letters_version = letters_version + 1
    WHERE id IN (
      SELECT sender_user_id FROM time_capsule_letters
      WHERE id IN (SELECT letter_id FROM changed_rows)
      UNION
      SELECT user_id FROM time_capsule_letter_admins
      WHERE letter_id IN (SELECT letter_id FROM changed_rows)
      UNION
      SELECT recipient_user_id FROM letter_deliveries
      WHERE letter_id IN (SELECT letter_id FROM changed_rows));
    IF TG_TABLE_NAME = 'time_capsule_letter_admins' THEN
      UPDATE users SET letters_version = letters_version + 1
      WHERE id IN (SELECT user_id FROM changed_rows);
    ELSIF TG_TABLE_NAME = 'letter_deliveries' THEN
      UPDATE users SET letters_version = letters_version + 1
      WHERE id IN (SELECT recipient_user_id FROM changed_rows);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

-- One statement, one bump per member. A trigger with a transition table may name one event
-- only, hence three per table.
CREATE TRIGGER letters_inserted AFTER INSERT ON time_capsule_letters
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();
CREATE TRIGGER letters_updated AFTER UPDATE ON time_capsule_letters
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();
CREATE TRIGGER letters_deleted AFTER DELETE ON time_capsule_letters
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();

CREATE TRIGGER letter_recipients_inserted AFTER INSERT ON time_capsule_letter_recipients
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();
CREATE TRIGGER letter_recipients_updated AFTER UPDATE ON time_capsule_letter_recipients
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();
CREATE TRIGGER letter_recipients_deleted AFTER DELETE ON time_capsule_letter_recipients
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();

CREATE TRIGGER letter_admins_inserted AFTER INSERT ON time_capsule_letter_admins
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();
CREATE TRIGGER letter_admins_updated AFTER UPDATE ON time_capsule_letter_admins
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();
CREATE TRIGGER letter_admins_deleted AFTER DELETE ON time_capsule_letter_admins
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();

CREATE TRIGGER letter_deliveries_inserted AFTER INSERT ON letter_deliveries
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();
CREATE TRIGGER letter_deliveries_updated AFTER UPDATE ON letter_deliveries
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();
CREATE TRIGGER letter_deliveries_deleted AFTER DELETE ON letter_deliveries
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_letter_lists();

-- The rename below finds a member's letters as recipient by this (so does the cascade of an
-- account's removal).
CREATE INDEX time_capsule_letter_recipients_user_idx ON time_capsule_letter_recipients (user_id)
  WHERE user_id IS NOT NULL;

-- A member's name shows in the lists of every letter they wrote, receive or manage.
CREATE FUNCTION bump_letter_lists_of_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH letters AS (
    SELECT id FROM time_capsule_letters WHERE sender_user_id = NEW.id
    UNION
    SELECT letter_id FROM time_capsule_letter_recipients WHERE user_id = NEW.id
    UNION
    SELECT letter_id FROM time_capsule_letter_admins WHERE user_id = NEW.id
  )
  UPDATE users SET letters_version = letters_version + 1
  WHERE id IN (
    SELECT sender_user_id FROM time_capsule_letters WHERE id IN (SELECT id FROM letters)
    UNION
    SELECT user_id FROM time_capsule_letter_admins WHERE letter_id IN (SELECT id FROM letters)
    UNION
    SELECT recipient_user_id FROM letter_deliveries WHERE letter_id IN (SELECT id FROM letters));
  RETURN NULL;
END;
$$;
CREATE TRIGGER users_renamed_in_letter_lists AFTER UPDATE OF first_name, last_name ON users
  FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION bump_letter_lists_of_renamed();
