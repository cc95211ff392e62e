-- A death report's document is an upload like a photo: it records its owner (the reporting
-- administrator) and its use (the member the report concerns), who alone may view it.
ALTER TABLE uploads DROP CONSTRAINT uploads_use_kind_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_use_kind_check
  CHECK (use_kind IN ('album_photo', 'history_photo', 'page_photo', 'letter_photo', 'member_icon', 'death_document'));
