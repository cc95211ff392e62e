-- A cancelled death case marks the notices about its member: the open death_suspected
-- notifications are found by the member they are about, not by their recipients (an
-- administrator removed since still holds theirs).
CREATE INDEX notifications_death_subject_idx ON notifications ((payload ->> 'userId'))
  WHERE kind = 'death_suspected';
